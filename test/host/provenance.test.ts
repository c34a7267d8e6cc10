import { provenanceOf } from "../../src/host/provenance";
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
      price: async (): Promise<PriceRecord> => {
        throw new Error("a history row asks no price");
      },
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

