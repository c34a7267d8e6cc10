import { PROVENANCE_COLUMNS, describePrice, frozenFormulas, provenanceTable, type ProvenanceRow } from "../../src/prices/provenance";

const row = (address: string, resultRange: string, formula: string): ProvenanceRow => ({
  sheet: "Sheet1",
  address,
  formula,
  symbol: "MB-AL-0004",
  dateAsked: "2024-03-01",
  assessmentDate: "2024-03-01",
  assessedAt: "2024-03-01T16:30:00.000+00:00",
  revision: 0,
  carried: false,
  field: "mid",
  currency: "USD",
  unit: "MT",
  conversion: "none",
  retrievedAt: "2024-03-01T10:00:00.000Z",
  serviceUrl: "https://localhost/physical/v2/Prices",
  resultRange,
});

describe("the provenance table", () => {
  it("writes a header and one row per value, and reads back each formula once with the range it covered", () => {
    const table = provenanceTable([row("C4", "C4:D5", '=PRICES.MID(A4:A5,C3:D3)'), row("D4", "C4:D5", '=PRICES.MID(A4:A5,C3:D3)'), row("B2", "B2", "=PRICES.MID(A2)")]);
    expect(table[0]).toEqual([...PROVENANCE_COLUMNS]);
    expect(table).toHaveLength(4);
    // every column of the record a rich price carries, in the header's order
    expect(table[3]).toEqual(["Sheet1", "B2", "=PRICES.MID(A2)", "MB-AL-0004", "2024-03-01", "2024-03-01", "2024-03-01T16:30:00.000+00:00", 0, false, "mid", "USD", "MT", "none", "2024-03-01T10:00:00.000Z", "https://localhost/physical/v2/Prices", "B2", ""]);
    expect(frozenFormulas(table)).toEqual([
      { sheet: "Sheet1", resultRange: "C4:D5", formula: "=PRICES.MID(A4:A5,C3:D3)" },
      { sheet: "Sheet1", resultRange: "B2", formula: "=PRICES.MID(A2)" },
    ]);
  });

  it("finds its columns by name, so a table whose columns were moved still restores", () => {
    expect(frozenFormulas([["Result range", "Formula", "Sheet"], ["A1:A3", "=PRICES.HISTORY(B1)", "Model"]])).toEqual([{ sheet: "Model", resultRange: "A1:A3", formula: "=PRICES.HISTORY(B1)" }]);
    expect(frozenFormulas([["Sheet", "Formula"], ["Model", "=PRICES.MID(A1)"]])).toEqual([]);
  });

  it("reads an error cell in the table as its error text and a number as its digits, never [object Object]", () => {
    const table = [["Sheet", "Formula", "Result range"], [{ error: "#REF!" }, "=PRICES.MID(A1)", "A1"], [2024, "=PRICES.MID(A2)", "A2"]];
    expect(frozenFormulas(table)).toEqual([
      { sheet: "#REF!", resultRange: "A1", formula: "=PRICES.MID(A1)" },
      { sheet: "2024", resultRange: "A2", formula: "=PRICES.MID(A2)" },
    ]);
  });

  it("describes a price from the client's record and lineage: the assessment's day, carried when before the date asked", async () => {
    const client = {
      price: async () => ({ date: "2024-03-04", assessmentDate: "2024-03-01T16:30:00.000+00:00", revision: 2, low: 1, mid: 2, high: 3 }),
      lineage: () => ({ key: "k", kind: "price" as const, fromCache: true, requestId: 7, askedAt: 5, request: { id: 7, endpoint: "/Prices", method: "GET" as const, params: {}, sentAt: Date.UTC(2024, 2, 4, 9), attempts: 1 } }),
    };
    expect(await describePrice(client as never, { symbol: "MB-AL-0004", date: "2024-03-04" }, "https://svc/physical/v2/")).toEqual({
      assessmentDate: "2024-03-01",
      assessedAt: "2024-03-01T16:30:00.000+00:00",
      revision: 2,
      carried: true,
      retrievedAt: "2024-03-04T09:00:00.000Z",
      serviceUrl: "https://svc/physical/v2/Prices",
    });
  });

  it("says the client's error instead of an assessment", async () => {
    const client = { price: async () => Promise.reject(new Error("unknown or not permitted symbol 'X'")) };
    expect((await describePrice(client, { symbol: "X" }, "https://svc")).assessmentDate).toBe("unknown or not permitted symbol 'X'");
  });
});
