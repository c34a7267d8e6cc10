import { NoDataError } from "../../src/prices/errors";
import type { PricesClient } from "../../src/prices/types";
import { cellText } from "../../src/taskpane/diagnostics";
import { ErrorLog } from "../../src/taskpane/plain-errors";
import { recordingClient } from "../../src/taskpane/recording-client";

function fakeClient(): PricesClient {
  const fail = (): Promise<never> => Promise.reject(new NoDataError("MB-AL-0004", "1990-01-02"));
  return {
    price: (key) => (key.symbol === "MB-AL-0004" ? fail() : Promise.resolve({ symbol: key.symbol } as never)),
    history: fail,
    instrument: fail,
    instruments: () => Promise.resolve([]),
    references: fail,
    invalidate: () => 3,
    stats: () => ({ errors: 7 }) as never,
    lineage: () => undefined,
  };
}

describe("recordingClient", () => {
  it("writes each failed answer to the pane's error log in plain words and still rejects", async () => {
    const log = new ErrorLog();
    const client = recordingClient(fakeClient(), (where, error) => log.add(where, error, 0));
    await expect(client.price({ symbol: "MB-AL-0004", date: "1990-01-02" })).rejects.toThrow(NoDataError);
    await expect(client.price({ symbol: "AG-WHE-0058" })).resolves.toEqual({ symbol: "AG-WHE-0058" });
    await expect(client.instrument("X")).rejects.toThrow();
    expect(log.list().map((entry) => entry.where)).toEqual(["instrument X", "MB-AL-0004 · 1990-01-02"]);
    expect(log.list()[1]?.text).toBe("No assessment for 'MB-AL-0004' on or before 1990-01-02.");
  });

  it("lists the same error once, newest first, with how many times it happened", async () => {
    const log = new ErrorLog();
    const client = recordingClient(fakeClient(), (where, error) => log.add(where, error, 0));
    for (let i = 0; i < 3; i += 1) await expect(client.price({ symbol: "MB-AL-0004", date: "1990-01-02" })).rejects.toThrow(NoDataError);
    await expect(client.instrument("X")).rejects.toThrow();
    await expect(client.price({ symbol: "MB-AL-0004", date: "1990-01-02" })).rejects.toThrow(NoDataError);
    expect(log.list().map((entry) => [entry.where, entry.count])).toEqual([["MB-AL-0004 · 1990-01-02", 4], ["instrument X", 1]]);
  });

  it("passes statistics, lineage and invalidation through", () => {
    const client = recordingClient(fakeClient(), () => undefined);
    expect(client.stats().errors).toBe(7);
    expect(client.invalidate()).toBe(3);
    expect(client.lineage({ symbol: "X" })).toBeUndefined();
  });
});

describe("cellText", () => {
  it("shows a cell's value as Excel's General format would", () => {
    expect(cellText(1234.5)).toBe("1234.5");
    expect(cellText(0.1 + 0.2)).toBe("0.3");
    expect(cellText(42)).toBe("42");
    expect(cellText(true)).toBe("TRUE");
    expect(cellText("")).toBe("(blank)");
    expect(cellText("#N/A")).toBe("#N/A");
  });
});
