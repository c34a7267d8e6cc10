import { parseHostFormula } from "../../src/host/formula";

describe("parseHostFormula", () => {
  it("reads what the shared grammar reads", () => {
    expect(parseHostFormula("=PRICES.MID(B2:A1)")).toEqual({
      kind: "call",
      name: "PRICES.MID",
      args: [{ kind: "reference", range: { top: 0, left: 0, bottom: 1, right: 1 }, text: "B2:A1" }],
    });
  });

  it.each([
    ["=PRICES.MID(A:A)", "whole rows and columns are not supported: A:A"],
    ["=SUM(Sheet1!2:3)", "whole rows and columns are not supported: Sheet1!2:3"],
  ])("reads whole rows and columns in %s (the engine reads the sheet's used area of them)", (formula, detail) => {
    expect(JSON.stringify(parseHostFormula(formula))).toContain('"whole"');
    expect(detail).toMatch(/whole rows and columns/);
  });
});
