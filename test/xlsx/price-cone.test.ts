/** The price cone (src/xlsx/cells-read.ts): PRICES cells, what their arguments need, and what reads their results. */
import { parseCellAddress, parseRangeAddress } from "../../src/formula/a1";
import { type ConeFormula, type SheetArea, priceCone } from "../../src/xlsx/cells-read";

function formula(sheet: string, address: string, reads: readonly string[] | undefined, options: { prices?: boolean; array?: string; dynamic?: boolean } = {}): ConeFormula {
  const position = parseCellAddress(address) ?? { row: 0, col: 0 };
  const reach = reads?.map((read): SheetArea => {
    const [target, range] = read.includes("!") ? (read.split("!") as [string, string]) : [sheet, read];
    const area = parseRangeAddress(range);
    if (!area) throw new Error(`not a range: ${range}`);
    return { sheet: target, area };
  });
  const array = options.array === undefined ? undefined : parseRangeAddress(options.array);
  return { sheet, address, ...position, callsPrices: options.prices === true, reach, ...(array ? { array: { area: array, dynamic: options.dynamic === true } } : {}) };
}

/** The formulas in the cone, as `Sheet!A1`, sorted. */
const cone = (formulas: readonly ConeFormula[]): string[] => {
  const inCone = priceCone(formulas);
  expect(inCone).toHaveLength(formulas.length);
  return formulas.filter((_, index) => inCone[index] === true).map((entry) => `${entry.sheet}!${entry.address}`).sort();
};

describe("priceCone", () => {
  it("takes the PRICES cells, their precedents on any sheet and their dependents, transitively, and nothing else", () => {
    const formulas = [
      formula("Inputs", "B1", ["Inputs!A1"]), // the date a price asks for: a precedent
      formula("Inputs", "B2", ["Inputs!B1"]), // reads the precedent only: outside
      formula("Model", "A2", ["A1", "Inputs!B1"], { prices: true }),
      formula("Model", "B2", ["A2"]), // dependent
      formula("Summary", "A1", ["Model!B2"]), // dependent of a dependent, on another sheet
      formula("Model", "C2", ["D2"]), // unrelated
      formula("Model", "D2", ["A1"]), // unrelated precedent of an unrelated formula
    ];
    expect(cone(formulas)).toEqual(["Inputs!B1", "Model!A2", "Model!B2", "Summary!A1"]);
  });

  it("reaches the readers of a saved spill and of the rows a dynamic array may grow into, and every formula only evaluation can place", () => {
    const formulas = [
      formula("Model", "F1", ["A1"], { prices: true, array: "F1:G20", dynamic: true }),
      formula("Model", "H5", ["G5"]), // inside the saved spill
      formula("Model", "H30", ["G25"]), // below it, where a longer history spills
      formula("Model", "H31", ["G1:G1048576"]), // a whole column
      formula("Model", "J1", ["K1"]), // beside it: outside
      formula("Model", "J2", undefined), // INDIRECT: its reach is known only when it runs
    ];
    expect(cone(formulas)).toEqual(["Model!F1", "Model!H30", "Model!H31", "Model!H5", "Model!J2"]);
  });

  it("is empty for a book without PRICES, whatever its formulas read", () => {
    expect(cone([formula("Model", "A1", ["B1"]), formula("Model", "B1", undefined)])).toEqual([]);
  });
});
