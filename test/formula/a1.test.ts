import { columnIndex, columnName, formatRangeAddress, isA1Reference, parseCellAddress, parseRangeAddress, sheetPrefix, splitSheet } from "../../src/formula/a1";

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

describe("A1 references", () => {
  it.each(["A1", "$A$1:B2", "Sheet1!A1", "'My sheet'!A1:B2", "'O''Brien'!C3", "A:C", "2:5", "XFD1048576"])("%s is a reference", (text) => {
    expect(isA1Reference(text)).toBe(true);
  });

  it.each(["A0", "XFE1", "A1048577", "A1)+CMD(", "1A", "'unclosed!A1", "A1 B2", ""])("%s is not", (text) => {
    expect(isA1Reference(text)).toBe(false);
  });

  it("quotes sheet names only when a reference needs it", () => {
    expect(sheetPrefix("Sheet1")).toBe("Sheet1!");
    expect(sheetPrefix("My sheet")).toBe("'My sheet'!");
    expect(sheetPrefix("O'Brien")).toBe("'O''Brien'!");
    expect(sheetPrefix("AB1")).toBe("'AB1'!");
  });
});

describe("splitSheet", () => {
  it("parts a sheet-qualified address into its sheet name, unquoted, and its area", () => {
    expect(splitSheet("'O''Brien'!A1:B2")).toEqual({ sheet: "O'Brien", area: "A1:B2" });
    expect(splitSheet("Sheet1!C3")).toEqual({ sheet: "Sheet1", area: "C3" });
    expect(splitSheet("D4")).toEqual({ area: "D4" });
    expect(splitSheet(`${sheetPrefix("My sheet")}E5`)).toEqual({ sheet: "My sheet", area: "E5" });
  });
});
