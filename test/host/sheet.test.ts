import { Sheet } from "../../src/host/sheet";
import { cellError } from "../../src/host/values";

describe("Sheet spill placement", () => {
  it("spills right and down from the anchor and reads the values back", () => {
    const sheet = new Sheet();
    sheet.addAnchor(1, 1);
    sheet.place(1, 1, [
      [1, 2],
      [3, 4],
    ]);
    expect(sheet.printed()).toEqual({ B2: 1, C2: 2, B3: 3, C3: 4 });
    expect(sheet.ownerOf(2, 2)).toBeDefined();
    expect(sheet.isBlank(2, 2)).toBe(false);
  });

  it("shows #SPILL! naming the first occupied cell and spills nothing", () => {
    const sheet = new Sheet();
    sheet.addAnchor(0, 0);
    sheet.setLiteral(1, 1, "x");
    sheet.place(0, 0, [
      [1, 2],
      [3, 4],
    ]);
    expect(sheet.printed()).toEqual({ A1: "#SPILL!: spill range A1:B2 isn't blank (B2)", B2: "x" });
    expect(sheet.isBlank(0, 1)).toBe(true);
  });

  it("refuses to spill over another formula's anchor or spill", () => {
    const sheet = new Sheet();
    sheet.addAnchor(0, 0);
    sheet.addAnchor(0, 2);
    sheet.place(0, 2, [[5], [6]]);
    sheet.place(0, 0, [[1, 2, 3]]);
    expect(sheet.value(0, 0)).toEqual(cellError("#SPILL!", "spill range A1:C1 isn't blank (C1)"));
    sheet.addAnchor(3, 0);
    sheet.place(3, 0, [[1, 2]]);
    sheet.place(2, 1, [[7], [8]]);
    expect(sheet.value(3, 1)).toBe(2);
  });

  it("frees the old spill when an anchor is placed again", () => {
    const sheet = new Sheet();
    sheet.addAnchor(0, 0);
    sheet.place(0, 0, [[1], [2], [3]]);
    sheet.place(0, 0, [[9]]);
    expect(sheet.printed()).toEqual({ A1: 9 });
    expect(sheet.isBlank(2, 0)).toBe(true);
  });

  it("shows #SPILL! when the result would run past the sheet's edge", () => {
    const sheet = new Sheet();
    sheet.addAnchor(1048575, 0);
    sheet.place(1048575, 0, [[1], [2]]);
    expect(sheet.printed()).toEqual({ A1048576: "#SPILL!: the result runs past the edge of the sheet" });
  });
});
