import { MAX_COLUMNS, MAX_ROWS, columnName, formatCellAddress, parseCellAddress } from "../../src/formula/a1";
import { BookError, canonicalCell, readBook } from "../../src/host/book";

/** What readBook's slow path makes of a key: its position, and whether the key is already written as the engine writes it. */
function slowly(key: string): { position: { row: number; col: number } | undefined; canonical: boolean } {
  const position = key.includes("$") ? undefined : parseCellAddress(key);
  return { position, canonical: position !== undefined && formatCellAddress(position) === key };
}

function problemsOf(book: unknown): readonly string[] {
  try {
    readBook(book);
  } catch (error) {
    if (error instanceof BookError) return error.problems;
    throw error;
  }
  return [];
}

describe("canonicalCell (a key as a reader writes it, read without a regex)", () => {
  const keys = [
    "A1", "B3", "Z9", "AA10", "AY200", "CW200", "XFD1", "XFE1", "XFD1048576", "XFD1048577", "A1048576", "A1048577", "ZZZ1",
    "AAAA1", "A0", "A01", "B03", "a1", "b3", "Ab3", " B3", "B3 ", "$B$3", "B$3", "$B3", "B", "3", "", "B3:C4", "B3#", "B-3",
    "B12345678", "B1234567", "R1C1", "A1.5", "ÄB1",
  ];
  for (let col = 0; col < 800; col += 37) for (const row of [1, 9, 10, 99, 1000, 65536]) keys.push(`${columnName(col)}${row}`);

  it.each(keys)("%j: the position of a key the engine writes alike, nothing for any other", (key) => {
    const { position, canonical } = slowly(key);
    expect(canonicalCell(key)).toEqual(canonical ? position : undefined);
  });

  it("reads the last cell of the sheet and nothing past it", () => {
    expect(canonicalCell(`XFD${MAX_ROWS}`)).toEqual({ row: MAX_ROWS - 1, col: MAX_COLUMNS - 1 });
    expect(canonicalCell(`XFE${MAX_ROWS}`)).toBeUndefined();
    expect(canonicalCell(`XFD${MAX_ROWS + 1}`)).toBeUndefined();
  });
});

describe("readBook's keys", () => {
  it("reads a key written otherwise (b03) as its cell, and a second key for one cell as a problem wherever it stands", () => {
    const book = readBook({ cells: { b03: 1, C4: "=B3*2" }, legacy: ["c04"] });
    expect(book.literals).toEqual([{ row: 2, col: 1, value: 1 }]);
    expect(book.formulas.map((formula) => [formula.address, formula.legacy])).toEqual([["C4", true]]);
    expect(problemsOf({ cells: { A1: 1, B2: 2, a1: 3 } })).toEqual(["A1 is given twice"]);
    expect(problemsOf({ cells: { a1: 1, A1: 3, B2: 2 } })).toEqual(["A1 is given twice"]);
    expect(problemsOf({ cells: { A1: 1, a01: 2, b2: 3, B02: 4 } })).toEqual(["A1 is given twice", "B2 is given twice"]);
  });

  it("refuses keys that are no cell, with a $, or past the sheet", () => {
    expect(problemsOf({ cells: { $A$1: 1, XFE1: 2, A0: 3, "A1:B2": 4 } })).toEqual([
      '"$A$1" is not a cell address such as B3',
      '"XFE1" is not a cell address such as B3',
      '"A0" is not a cell address such as B3',
      '"A1:B2" is not a cell address such as B3',
    ]);
    expect(problemsOf({ cells: { A1: "=1" }, legacy: ["A1", "$B$2"] })).toEqual(['"legacy" must be a list of cell addresses such as "B4"']);
  });

  it("names each cell \"legacy\" lists that holds no formula, in its order, whatever other formulas the book holds", () => {
    expect(problemsOf({ cells: { A1: 1, B1: "=2", C1: "=3" }, legacy: ["B1", "A1", "D1"] })).toEqual(['"legacy" lists A1, which holds no formula', '"legacy" lists D1, which holds no formula']);
    expect(problemsOf({ cells: { A1: "=F(" }, legacy: ["a1"] })).toEqual([expect.stringMatching(/^A1: /) as unknown, '"legacy" lists A1, which holds no formula']);
  });
});
