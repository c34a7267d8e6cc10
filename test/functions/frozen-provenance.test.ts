/** The provenance rows Freeze writes, for cells whose arguments are errors (no client: nothing was fetched). */
import { type FormulaCalls, provenanceOf } from "../../src/functions/frozen-provenance";

const NOT_AVAILABLE = { kind: "error", code: "#N/A" } as const;

function oneCall(name: string, args: readonly unknown[]): Map<string, FormulaCalls> {
  return new Map([["B2", { text: `=PRICES.${name}(A1)`, resultRange: "B2", calls: [{ name, args, row: 0, col: 0, whole: true }] }]]);
}

describe("provenance of calls given error cells", () => {
  it("names a refused date by the error it showed", async () => {
    const [row] = await provenanceOf("Model", oneCall("MID", ["MB-AL-0004", NOT_AVAILABLE]), undefined, "https://prices.example", "1900", false, "2024-03-01");
    expect(row?.symbol).toBe("MB-AL-0004");
    expect(row?.dateAsked).toBe("#N/A");
  });

  it("names an error given as the symbol by its code", async () => {
    const [row] = await provenanceOf("Model", oneCall("MID", [NOT_AVAILABLE]), undefined, "https://prices.example", "1900", false, "2024-03-01");
    expect(row?.symbol).toBe("#N/A");
  });
});
