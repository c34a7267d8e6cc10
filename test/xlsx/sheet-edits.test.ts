/** sheetEdits: what the refresh rewrites in a sheet, from the engine's result for each formula read. */
import type { SheetResult } from "../../src/host/page-api";
import { sheetEdits } from "../../src/xlsx/refreshed-copy";
import type { FormulaSource } from "../../src/xlsx/workbook-file";

function result(values: SheetResult["values"], spills: SheetResult["spills"], dataTypes: SheetResult["dataTypes"] = {}): SheetResult {
  return { name: "Sheet1", values, spills, dataTypes, evaluated: spills.map((spill) => spill.anchor) };
}

describe("sheetEdits", () => {
  it("gives a one-value formula its result, a rich price its number format, and nothing else a format", () => {
    const formulas = new Map<string, FormulaSource>([
      ["B2", { text: "PRICES.MID(A2,B1)", callsPrices: true }],
      ["C2", { text: "B2*2", callsPrices: false }],
      ["D2", { text: "\"x\"", callsPrices: false }],
    ]);
    const { edits } = sheetEdits(formulas, result({ B2: 61.5, C2: 123, D2: "x" }, [{ anchor: "B2", area: "B2" }, { anchor: "C2", area: "C2" }, { anchor: "D2", area: "D2" }], { B2: { numberFormat: "0.00 \"USD/t\"" } as SheetResult["dataTypes"][string] }), false);
    expect(Object.fromEntries(edits)).toEqual({
      B2: { kind: "result", value: 61.5, numberFormat: "0.00 \"USD/t\"" },
      C2: { kind: "result", value: 123 },
      D2: { kind: "result", value: "x" },
    });
  });

  it("keeps a legacy array formula's whole area when its result is one value: #N/A beyond it, its ref on the anchor", () => {
    const formulas = new Map<string, FormulaSource>([["B2", { text: "PRICES.MID(A2,B1)", callsPrices: true, array: { area: { top: 1, left: 1, bottom: 2, right: 1 }, dynamic: false } }]]);
    const { edits } = sheetEdits(formulas, result({ B2: 61.5 }, [{ anchor: "B2", area: "B2" }]), false);
    expect(Object.fromEntries(edits)).toEqual({
      B2: { kind: "result", value: 61.5, ref: "B2:B3" },
      B3: { kind: "result", value: { kind: "error", code: "#N/A" } },
    });
  });

  it("freezes a one-value PRICES formula into its value, and keeps a formula outside the price cone as saved", () => {
    const formulas = new Map<string, FormulaSource>([
      ["B2", { text: "PRICES.MID(A2,B1)", callsPrices: true }],
      ["C2", { text: "B2*2", callsPrices: false }],
    ]);
    const { edits, frozen } = sheetEdits(formulas, result({ B2: 61.5, C2: 123 }, [{ anchor: "B2", area: "B2" }]), true);
    expect(Object.fromEntries(edits)).toEqual({ B2: { kind: "freeze", value: 61.5 } });
    expect(Object.fromEntries(frozen)).toEqual({ B2: "PRICES.MID(A2,B1)" });
  });
});
