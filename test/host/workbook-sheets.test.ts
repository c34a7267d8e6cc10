/** A workbook's sheets in the host: a sheet that reads another (`Inputs!A2`) runs after it and sees its final values. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHostApi } from "../../src/host/page-api";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import { FIXTURES, fixtureMetadata } from "./harness";

function fixtureApi() {
  const runtime = createCustomFunctionsRuntime();
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.CustomFunctions = runtime.global;
  new Function(readFileSync(join(FIXTURES, "functions.js"), "utf8"))();
  return createHostApi({
    runtime,
    metadata: fixtureMetadata(),
    requests: () => ({ total: 0, byPath: {} }),
    addin: () => undefined,
    setCountedBase: () => undefined,
  });
}

describe("evaluateWorkbook across sheets", () => {
  it("a sheet reads another sheet's final values, spills and custom results included, whatever their order", async () => {
    const api = fixtureApi();
    const result = await api.evaluateWorkbook([
      { name: "Model", book: { cells: { A1: "=Inputs!B1*2", A2: "=SUM('Inputs'!C1#)", A3: "=PRICES.ADD(inputs!A1, 1)" } } },
      { name: "Inputs", book: { cells: { A1: 10, B1: "=PRICES.ADD(A1, 5)", C1: "={1;2;3}" } } },
    ]);
    const model = result.sheets.find((sheet) => sheet.name === "Model")?.values ?? {};
    expect([model.A1, model.A2, model.A3]).toEqual([30, 6, 11]);
  });

  it("gives a sheet's cells in row-major order, spilled cells included, each anchor with its area, and what the proof said", async () => {
    const api = fixtureApi();
    const cells = { AA3: 7, D2: "=A2+1", C1: "={1;2}", A2: 5, B1: "=A2*2", A1: "=PRICES.ADD(1,1)", b3: "'text" };
    const result = await api.evaluateWorkbook([{ name: "Model", book: { cells, saved: { B1: 10, C1: [[1], [2]], A1: 2 } } }]);
    const sheet = result.sheets[0];
    expect(Object.entries(sheet?.values ?? {})).toEqual([["A1", 2], ["B1", 10], ["C1", 1], ["A2", 5], ["C2", 2], ["D2", 6], ["B3", "text"], ["AA3", 7]]);
    expect(sheet?.spills).toEqual([{ anchor: "A1", area: "A1" }, { anchor: "B1", area: "B1" }, { anchor: "C1", area: "C1:C2" }, { anchor: "D2", area: "D2" }]);
    expect(sheet?.evaluated).toEqual(["A1", "B1", "C1", "D2"]);
    expect(sheet?.proof).toEqual({ proven: ["B1", "C1"], prices: ["A1"], unproven: [{ cell: "D2", formula: "A2+1", why: "the file holds no saved value for it" }] });
    expect(sheet?.dataTypes).toEqual({});
  });

  it("leaves a reference back along a cycle of sheets, and one to a sheet that is not there, for Excel (dependents too)", async () => {
    const api = fixtureApi();
    const result = await api.evaluateWorkbook([
      { name: "One", book: { cells: { A1: "=Two!A1+1", B1: 5 } } },
      { name: "Two", book: { cells: { A1: "=One!B1*2" } } },
      { name: "Three", book: { cells: { A1: "=Missing!A1", A2: 4, A3: "=A2*2" } } },
    ]);
    const values = Object.fromEntries(result.sheets.map((sheet) => [sheet.name, sheet.values]));
    const left = Object.fromEntries(result.sheets.map((sheet) => [sheet.name, sheet.leftForExcel]));
    // One reads Two, which ran first; Two's reference back to One is not read half-done
    expect(left.Two).toEqual([{ cell: "A1", formula: "One!B1*2", why: expect.stringMatching(/^One!B1: 'One' also reads this sheet/) as unknown }]);
    expect(left.One).toEqual([{ cell: "A1", formula: "Two!A1+1", why: "depends on Two!A1 (left for Excel)" }]);
    expect(left.Three).toEqual([{ cell: "A1", formula: "Missing!A1", why: "Missing!A1: the workbook has no sheet 'Missing'" }]);
    expect(values.Three?.A1).toMatchObject({ code: "#N/A", message: "left for Excel: Missing!A1: the workbook has no sheet 'Missing'" });
    expect(values.Three?.A3).toBe(8);
  });

  it("resolves workbook and sheet-scoped names, constants included, and structured references to tables", async () => {
    const api = fixtureApi();
    const result = await api.evaluateWorkbook(
      [
        { name: "Rates", book: { cells: { A1: "Region", B1: "Rate", A2: "North", B2: 0.1, A3: "South", B3: 0.2, A4: "Total", B4: "=SUBTOTAL(109,B2:B3)" } } },
        { name: "Model", book: { cells: { A1: "=TaxRate*100", A2: "=SUM(RateList)", A3: "=Local", A4: "=SUM(Rates[Rate])", A5: "=Rates[[#Totals],[Rate]]", A6: "=COUNTA(Rates[#Headers])" } } },
        { name: "Other", book: { cells: { A1: "=Local" } } },
      ],
      {
        names: [
          { name: "TaxRate", refersTo: "0.2" },
          { name: "RateList", refersTo: "Rates!$B$2:$B$3" },
          { name: "Local", sheet: "Model", refersTo: "7" },
          { name: "Local", refersTo: "9" },
        ],
        tables: [{ name: "Rates", sheet: "Rates", ref: "A1:B4", headerRowCount: 1, totalsRowCount: 1, columns: ["Region", "Rate"] }],
      },
    );
    const values = Object.fromEntries(result.sheets.map((sheet) => [sheet.name, sheet.values]));
    expect([values.Model?.A1, values.Model?.A2, values.Model?.A3, values.Model?.A4, values.Other?.A1, values.Model?.A6]).toEqual([20, expect.closeTo(0.3, 12) as unknown, 7, expect.closeTo(0.3, 12) as unknown, 9, 2]);
    // the totals row's SUBTOTAL, read through the table's #Totals
    expect(values.Model?.A5).toBeCloseTo(0.3, 12);
    expect(result.sheets.find((sheet) => sheet.name === "Model")?.leftForExcel).toEqual([]);
  });
});

describe("evaluateWorkbook's beforeEvaluation (the runner configures the service there)", () => {
  /** The fixture bundle's own count of calls of SLOW started so far. */
  const slowStarted = (): number => (globalThis as unknown as { FixtureFunctions: { maxInFlight: number } }).FixtureFunctions.maxInFlight;

  it("runs once, after every sheet is loaded and before any formula is evaluated", async () => {
    const api = fixtureApi();
    const seen: number[] = [];
    const result = await api.evaluateWorkbook(
      [
        { name: "Model", book: { cells: { A1: "=PRICES.SLOW(1)", A2: "=Inputs!A1+1" } } },
        { name: "Inputs", book: { cells: { A1: "=PRICES.ADD(2, 3)" } } },
      ],
      { beforeEvaluation: () => { seen.push(slowStarted()); return Promise.resolve(); } },
    );
    expect(seen).toEqual([0]);
    const model = result.sheets.find((sheet) => sheet.name === "Model")?.values ?? {};
    expect([model.A1, model.A2]).toEqual(["done after 1", 6]);
  });

  it("is not run when a sheet cannot be loaded, and its failure ends the evaluation before any call", async () => {
    const api = fixtureApi();
    let runs = 0;
    await expect(api.evaluateWorkbook(
      [
        { name: "Model", book: { cells: { A1: "=PRICES.SLOW(1)" } } },
        { name: "Broken", book: { cells: { A1: "=SUM(" } } },
      ],
      { beforeEvaluation: () => { runs += 1; return Promise.resolve(); } },
    )).rejects.toThrow(/A1/);
    expect(runs).toBe(0);
    await expect(api.evaluateWorkbook([{ name: "Model", book: { cells: { A1: "=PRICES.SLOW(1)" } } }], { beforeEvaluation: () => Promise.reject(new Error("the service did not start")) }))
      .rejects.toThrow("the service did not start");
    expect(slowStarted()).toBe(0);
  });
});
