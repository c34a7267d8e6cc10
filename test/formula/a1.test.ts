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

  it("reads a cell address by its characters exactly as the regular expression `$?` 1-3 letters `$?` 1-7 digits reads it", () => {
    // the reference: the expression parseCellAddress ran before its character loop
    const byExpression = (text: string): { row: number; col: number } | undefined => {
      const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(text.trim());
      if (!match) return undefined;
      const position = { row: Number(match[2]) - 1, col: columnIndex(match[1] ?? "") };
      return position.row >= 0 && position.row < 1_048_576 && position.col >= 0 && position.col < 16_384 ? position : undefined;
    };
    const pieces = ["", "$", "A", "z", "XFD", "XFE", "aBc", "ABCD", "@", "[", "`", "{", "0", "1", "07", "1048576", "1048577", "12345678", " ", "\t", "\u00a0", ":", "-", "\u00e9", "\u0130"];
    const texts = new Set<string>(["b3", "$XFD$1048576", "A$1", "$a1", "A$$1", "$$A1", "A1$", " A1 ", "A 1", "ＡＢ1"]);
    for (const first of pieces) for (const second of pieces) for (const third of pieces) texts.add(first + second + third);
    let cells = 0;
    for (const text of texts) {
      const expected = byExpression(text);
      if (expected !== undefined) cells += 1;
      expect({ text, position: parseCellAddress(text) }).toEqual({ text, position: expected });
    }
    // the comparison covers addresses as well as refusals
    expect(cells).toBeGreaterThan(100);
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
