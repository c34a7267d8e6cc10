import { provenanceOf } from "../../src/host/provenance";
import { pricesCalls } from "../../src/taskpane/formula-calls";
import type { LineageKey, PriceKey } from "../../src/prices/types";
import type { PriceRecord } from "../../src/api/schemas";

/** A client that answers every key with one record and returns the keys it was asked, as the runner's cache would be. */
function recordingClient(): [{ price(key: PriceKey): Promise<PriceRecord> }, PriceKey[]] {
  const asked: PriceKey[] = [];
  const client = {
    price: async (key: PriceKey): Promise<PriceRecord> => {
      asked.push(key);
      return { date: key.date ?? "2024-03-04", assessmentDate: "2024-03-04T16:30:00.000+00:00", revision: 0, low: 1, mid: 2, high: 3 };
    },
  };
  return [client, asked];
}

/** A client for history rows, which ask no price. */
const historyOnlyClient = {
  price: async (): Promise<PriceRecord> => {
    throw new Error("a history row asks no price");
  },
};

function calls(text: string, name: string, args: unknown[]) {
  return new Map([["B2", { text, resultRange: "B2", calls: [{ name, args, row: 0, col: 0, whole: true }] }]]);
}

describe("the runner's provenance of frozen price cells", () => {
  it("describes an AVERAGE cell by the average's key, not the plain assessment's", async () => {
    const [client, asked] = recordingClient();
    await provenanceOf("Sheet1", calls('=PRICES.AVERAGE("MB-AL-0004","Monthly","2024-03-04")', "AVERAGE", ["MB-AL-0004", "Monthly", "2024-03-04"]), client, "https://svc/physical/v2");
    expect(asked).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-04", calculationType: "MonthlyAverage" }]);
  });

  it("describes a converted MID cell by its converted key, and PRICE's field and calculation too", async () => {
    const [client, asked] = recordingClient();
    await provenanceOf("Sheet1", calls('=PRICES.MID("MB-AL-0004","2024-03-04","eur","lb")', "MID", ["MB-AL-0004", "2024-03-04", "eur", "lb"]), client, "https://svc/physical/v2");
    await provenanceOf(
      "Sheet1",
      calls('=PRICES.PRICE("MB-AL-0004","2024-03-04","midChangeSincePrevious","WeeklyAverage")', "PRICE", ["MB-AL-0004", "2024-03-04", "midChangeSincePrevious", "WeeklyAverage"]),
      client,
      "https://svc/physical/v2",
    );
    expect(asked).toEqual([
      { symbol: "MB-AL-0004", date: "2024-03-04", currency: "EUR", unit: "LB" },
      { symbol: "MB-AL-0004", date: "2024-03-04", calculationType: "WeeklyAverage", fields: ["midChangeSincePrevious"] },
    ]);
  });

  it("asks nothing for a call whose arguments the function refuses, and still writes its row", async () => {
    const [client, asked] = recordingClient();
    const rows = await provenanceOf("Sheet1", calls('=PRICES.AVERAGE("MB-AL-0004","Fortnightly")', "AVERAGE", ["MB-AL-0004", "Fortnightly"]), client, "https://svc/physical/v2");
    expect(asked).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.symbol).toBe("MB-AL-0004");
  });

  it("says when a HISTORY's request left and which endpoint served it, found by the key the call asked", async () => {
    const looked: LineageKey[] = [];
    const client = {
      ...historyOnlyClient,
      lineage: (key: LineageKey) => {
        looked.push(key);
        return { key: "h", kind: "history" as const, fromCache: false, requestId: 2, askedAt: 1, request: { id: 2, endpoint: "/Prices/History", method: "GET" as const, params: {}, sentAt: Date.UTC(2024, 2, 8, 9), attempts: 1, retryDelaysMs: [], keys: 1 } };
      },
    };
    const args = ["MB-AL-0004", "2024-03-01", "2024-03-08", null, null, null, "MonthlyAverage", null, null, "cny", null];
    const [row] = await provenanceOf("Sheet1", calls('=PRICES.HISTORY("MB-AL-0004","2024-03-01","2024-03-08",,,,"MonthlyAverage",,,"cny")', "HISTORY", args), client, "https://svc/physical/v2");
    expect(looked).toEqual([{ symbol: "MB-AL-0004", fromDate: "2024-03-01", toDate: "2024-03-08", calculationType: "MonthlyAverage", currency: "CNY" }]);
    expect(row).toMatchObject({ dateAsked: "2024-03-01..2024-03-08", retrievedAt: "2024-03-08T09:00:00.000Z", serviceUrl: "https://svc/physical/v2/Prices/History" });
  });

  it("reads a HISTORY with no end date up to the day the functions took as today (the runner's --today), not the machine's", async () => {
    const looked: LineageKey[] = [];
    const client = { ...historyOnlyClient, lineage: (key: LineageKey) => void looked.push(key) };
    const [row] = await provenanceOf("Sheet1", calls('=PRICES.HISTORY("MB-AL-0004","2024-03-01")', "HISTORY", ["MB-AL-0004", "2024-03-01"]), client, "https://svc/physical/v2", "1900", false, "2024-03-08");
    expect(row?.dateAsked).toBe("2024-03-01..2024-03-08");
    expect(looked).toEqual([{ symbol: "MB-AL-0004", fromDate: "2024-03-01", toDate: "2024-03-08" }]);
  });

  it("reads date serials in the book's date system, skips a blank date inside a range and asks nothing for a refused date", async () => {
    const [client, asked] = recordingClient();
    // 45352 is 2024-03-01 in the 1900 system; in the 1904 system the same day is 45352 - 1462
    const args = ["MB-AL-0004", [[45352 - 1462, null, "2024-13-01"]]];
    const rows = await provenanceOf("Sheet1", calls("=PRICES.MID(A1,B1:D1)", "MID", args), client, "https://svc/physical/v2", "1904");
    expect(asked).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01" }]);
    expect(rows.map((row) => row.dateAsked)).toEqual(["2024-03-01", "2024-13-01"]);
    expect(rows[1]?.assessmentDate).toBe("");
  });
});


describe("one provenance for the pane and the runner: every PRICES function, nested calls, error cells", () => {
  const sentAt = Date.UTC(2024, 2, 8, 9);
  /** A client whose lineage knows every key it is asked about, answering from one request per endpoint kind. */
  function knowingClient() {
    const looked: LineageKey[] = [];
    const client = {
      price: async (key: PriceKey): Promise<PriceRecord> => ({ date: key.date ?? "2024-03-04", assessmentDate: "2024-03-04T16:30:00.000+00:00", revision: 2, low: 1, mid: 2, high: 3 }),
      lineage: (key: LineageKey) => {
        looked.push(key);
        const endpoint = "reference" in key ? "/References" : "instrument" in key || "instruments" in key ? "/Instruments" : "fromDate" in key ? "/Prices/History" : "/Prices";
        return { key: "k", kind: "price" as const, fromCache: false, requestId: 1, askedAt: 1, request: { id: 1, endpoint, method: "GET" as const, params: {}, sentAt, attempts: 1, retryDelaysMs: [], keys: 1 } };
      },
    };
    return { client, looked };
  }
  const one = (text: string, name: string, args: unknown[], whole = true, values?: unknown[][]) =>
    new Map([["B2", { text, resultRange: "B2", calls: [{ name, args, row: 0, col: 0, whole }], ...(values ? { values } : {}) }]]);

  it.each([
    ["FORECAST", '=PRICES.FORECAST("MB-AL-0004")', ["MB-AL-0004", null, null, null], "MB-AL-0004", "forecast F24M", "/Prices/History"],
    ["CURVE", '=PRICES.CURVE("MB-AL-0004")', ["MB-AL-0004", null], "MB-AL-0004", "latest", "/Prices"],
    ["INSTRUMENT", '=PRICES.INSTRUMENT("MB-AL-0004","currency")', ["MB-AL-0004", "currency"], "MB-AL-0004", "current record", "/Instruments"],
    ["CONVERSIONS", '=PRICES.CONVERSIONS("MB-AL-0004")', ["MB-AL-0004", null], "MB-AL-0004", "current record", "/Instruments"],
    ["REFERENCE", '=PRICES.REFERENCE("currency")', ["currency", null, null], "Currency", "current list", "/References"],
    ["HISTORY", '=PRICES.HISTORY("MB-AL-0004","2024-03-01","2024-03-08")', ["MB-AL-0004", "2024-03-01", "2024-03-08"], "MB-AL-0004", "2024-03-01..2024-03-08", "/Prices/History"],
  ])("fills symbol, date asked, retrieved at and service URL for %s", async (name, text, args, symbol, dateAsked, endpoint) => {
    const { client } = knowingClient();
    const [row] = await provenanceOf("Sheet1", one(text, name, args), client, "https://svc/physical/v2");
    expect(row).toMatchObject({ symbol, dateAsked, retrievedAt: new Date(sentAt).toISOString(), serviceUrl: `https://svc/physical/v2${endpoint}`, formula: text });
  });

  it("describes a HISTORY nested in AVERAGE as the runner's engine records it, read by the pane from the formula", async () => {
    const text = '=AVERAGE(PRICES.HISTORY(A1,"2024-03-01","2024-03-08","mid",0))';
    const calls = await pricesCalls(text, async () => [["MB-AL-0004"]], "2024-03-08");
    expect(calls).toEqual([{ name: "HISTORY", args: ["MB-AL-0004", "2024-03-01", "2024-03-08", "mid", 0], row: 0, col: 0, whole: false }]);
    const { client } = knowingClient();
    const rows = await provenanceOf("Sheet1", new Map([["B2", { text, resultRange: "B2", calls }]]), client, "https://svc/physical/v2");
    expect(rows).toEqual([
      { sheet: "Sheet1", address: "B2", formula: text, resultRange: "B2", symbol: "MB-AL-0004", dateAsked: "2024-03-01..2024-03-08", assessmentDate: "", assessedAt: "", revision: "", carried: "", field: "", currency: "", unit: "", conversion: "", retrievedAt: new Date(sentAt).toISOString(), serviceUrl: "https://svc/physical/v2/Prices/History" },
    ]);
  });

  it.each([
    ["MID", '=PRICES.MID("MB-AL-0004","2024-03-04")', ["MB-AL-0004", "2024-03-04"], { field: "mid", currency: "USD", unit: "MT", conversion: "none", assessedAt: "2024-03-04T16:30:00.000+00:00", revision: 2, carried: false }],
    ["HIGH", '=PRICES.HIGH("MB-AL-0004",,"eur","lb")', ["MB-AL-0004", null, "eur", "lb"], { field: "high", currency: "EUR", unit: "LB", conversion: "USD/MT to EUR/LB" }],
    ["PRICE", '=PRICES.PRICE("MB-AL-0004",,"low")', ["MB-AL-0004", null, "low"], { field: "low", currency: "USD", unit: "MT", conversion: "none" }],
    ["AVERAGE", '=PRICES.AVERAGE("MB-AL-0004","Monthly")', ["MB-AL-0004", "Monthly"], { field: "mid", currency: "USD", unit: "MT", conversion: "none" }],
    ["HISTORY", '=PRICES.HISTORY("MB-AL-0004","2024-03-01","2024-03-08",,,,,,,"cny")', ["MB-AL-0004", "2024-03-01", "2024-03-08", null, null, null, null, null, null, "cny"], { field: "", currency: "CNY", unit: "MT", conversion: "USD/MT to CNY/MT", assessedAt: "" }],
    ["CURVE", '=PRICES.CURVE("MB-AL-0004")', ["MB-AL-0004", null], { field: "", currency: "USD", unit: "MT", conversion: "none" }],
    ["FORECAST", '=PRICES.FORECAST("MB-AL-0004")', ["MB-AL-0004", null, null, null], { currency: "USD", unit: "MT", conversion: "none" }],
    ["INSTRUMENT", '=PRICES.INSTRUMENT("MB-AL-0004","currency")', ["MB-AL-0004", "currency"], { field: "", currency: "", unit: "", conversion: "" }],
  ])("keeps the record a rich value carries for %s: field, currency, unit, conversion, assessment time", async (name, text, args, record) => {
    const { client } = knowingClient();
    const instruments: string[] = [];
    const withInstruments = {
      ...client,
      instrument: async (symbol: string) => {
        instruments.push(symbol);
        return { currencyId: "USD", unitOfMeasureId: "MT" };
      },
    };
    const [row] = await provenanceOf("Sheet1", one(text, name, args), withInstruments, "https://svc/physical/v2");
    expect(row).toMatchObject(record);
    expect(instruments.length).toBeLessThanOrEqual(1);
  });

  it("asks no instrument when only the keys are wanted (the change report), so it sends no request of its own", async () => {
    const { client } = knowingClient();
    const asked: string[] = [];
    const counting = { ...client, instrument: async (symbol: string) => (asked.push(symbol), { currencyId: "USD", unitOfMeasureId: "MT" }) };
    const [row] = await provenanceOf("Sheet1", one('=PRICES.MID("MB-AL-0004")', "MID", ["MB-AL-0004"]), counting, "https://svc/physical/v2", "1900", false);
    expect(asked).toEqual([]);
    expect(row).toMatchObject({ symbol: "MB-AL-0004", field: "mid", currency: "", unit: "" });
  });

  it("names no currency or unit for a price that could not be read, nor where the client knows no instruments", async () => {
    const { client } = knowingClient();
    const [plainClient] = await provenanceOf("Sheet1", one('=PRICES.MID("MB-AL-0004")', "MID", ["MB-AL-0004"]), client, "https://svc/physical/v2");
    expect(plainClient).toMatchObject({ field: "mid", currency: "", unit: "", conversion: "", revision: 2 });
    const failing = { ...client, price: async (): Promise<PriceRecord> => Promise.reject(new Error("no price")), instrument: async () => ({ currencyId: "USD", unitOfMeasureId: "MT" }) };
    const [failed] = await provenanceOf("Sheet1", one('=PRICES.MID("MB-AL-0004")', "MID", ["MB-AL-0004"]), failing, "https://svc/physical/v2");
    expect(failed).toMatchObject({ assessmentDate: "no price", currency: "", unit: "", conversion: "" });
  });

  it("never gives an assessment to a cell that shows an error", async () => {
    const { client } = knowingClient();
    const [price] = await provenanceOf("Sheet1", one('=PRICES.MID("NO-SUCH")', "MID", ["NO-SUCH"], true, [["#N/A"]]), client, "https://svc/physical/v2");
    expect(price).toMatchObject({ symbol: "NO-SUCH", assessmentDate: "", revision: "", carried: "" });
    const [curve] = await provenanceOf("Sheet1", one('=PRICES.CURVE("AG-WHE-0058")', "CURVE", ["AG-WHE-0058"], true, [["#N/A"]]), client, "https://svc/physical/v2");
    expect(curve).toMatchObject({ symbol: "AG-WHE-0058", assessmentDate: "", revision: "" });
  });

  it("reads rolling dates and references as the functions receive them, and skips a call it cannot read", async () => {
    const calls = await pricesCalls('=PRICES.MID(A4:A5, TODAY()-1) + PRICES.MID(INDEX(A:A,2))', async () => [["MB-AL-0004"], ["AG-WHE-0058"]], "2024-03-08");
    expect(calls).toEqual([{ name: "MID", args: [[["MB-AL-0004"], ["AG-WHE-0058"]], "2024-03-07"], row: 0, col: 0, whole: false }]);
  });
});
