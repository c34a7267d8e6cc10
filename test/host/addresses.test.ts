import { columnIndex, columnName, formatRangeAddress, parseCellAddress, parseRangeAddress } from "../../src/host/addresses";

describe("addresses", () => {
  it.each([
    [0, "A"],
    [25, "Z"],
    [26, "AA"],
    [701, "ZZ"],
    [702, "AAA"],
    [16383, "XFD"],
  ])("column %i is %s and back", (index, name) => {
    expect(columnName(index)).toBe(name);
    expect(columnIndex(name)).toBe(index);
  });

  it("reads cell addresses inside the sheet only", () => {
    expect(parseCellAddress("b3")).toEqual({ row: 2, col: 1 });
    expect(parseCellAddress("$XFD$1048576")).toEqual({ row: 1048575, col: 16383 });
    expect(parseCellAddress("XFE1")).toBeUndefined();
    expect(parseCellAddress("A1048577")).toBeUndefined();
    expect(parseCellAddress("A0")).toBeUndefined();
    expect(parseCellAddress("1A")).toBeUndefined();
  });

  it("normalises ranges and prints single cells without a colon", () => {
    const range = parseRangeAddress("C5:A1");
    expect(range).toEqual({ top: 0, left: 0, bottom: 4, right: 2 });
    expect(range && formatRangeAddress(range)).toBe("A1:C5");
    const cell = parseRangeAddress("D4");
    expect(cell && formatRangeAddress(cell)).toBe("D4");
  });
});
