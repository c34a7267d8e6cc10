/** What the engine is given of a read workbook (src/xlsx/engine-book.ts): the legacy formulas and legacy array areas. */
import { parseRangeAddress } from "../../src/formula/a1";
import { onlyCellsRead } from "../../src/xlsx/engine-book";
import type { FormulaSource } from "../../src/xlsx/workbook-file";

const area = (text: string) => parseRangeAddress(text) ?? { top: 0, left: 0, bottom: 0, right: 0 };

describe("onlyCellsRead", () => {
  it("lists a legacy array formula (t=\"array\" without cm) with its fixed area, a plain formula as legacy, and a dynamic array in neither", () => {
    const sources = new Map<string, FormulaSource>([
      ["C2", { text: "123", callsPrices: false, array: { area: area("C2:C5"), dynamic: false } }],
      ["B2", { text: "A2:A5", callsPrices: false, array: { area: area("B2:B5"), dynamic: true } }],
      ["G2", { text: "SUM(_xlfn.ANCHORARRAY(C2))", callsPrices: false }],
    ]);
    const cells = { C2: "=123", B2: "=A2:A5", G2: "=SUM(_xlfn.ANCHORARRAY(C2))" };
    const [sheet] = onlyCellsRead(new Map([["Sheet1", new Map(Object.entries(cells))]]), new Map([["Sheet1", sources]]));
    expect(sheet?.book).toEqual({ cells, legacy: ["G2"], arrays: { C2: "C2:C5" } });
  });
});
