/** A workbook's sheets in the host: a sheet that reads another (`Inputs!A2`) runs after it and sees its final values. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHostApi } from "../../src/host/api";
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

  it("refuses a reference back along a cycle of sheets with a #REF! that says why, and a sheet that is not there", async () => {
    const api = fixtureApi();
    const result = await api.evaluateWorkbook([
      { name: "One", book: { cells: { A1: "=Two!A1+1", B1: 5 } } },
      { name: "Two", book: { cells: { A1: "=One!B1*2" } } },
      { name: "Three", book: { cells: { A1: "=Missing!A1" } } },
    ]);
    const values = Object.fromEntries(result.sheets.map((sheet) => [sheet.name, sheet.values]));
    // One reads Two, which ran first; Two's reference back to One is refused rather than read half-done
    expect(values.Two?.A1).toMatchObject({ code: "#REF!", message: expect.stringMatching(/'One' also reads this sheet/) as unknown });
    expect(values.One?.A1).toMatchObject({ code: "#REF!" });
    expect(values.Three?.A1).toMatchObject({ code: "#REF!", message: "Missing!A1: the workbook has no sheet 'Missing'" });
  });
});
