/**
 * The pane's Freeze and the runner's --freeze write the same provenance rows for the same book: the runner describes
 * the calls its engine recorded (src/host/page-api.ts), the pane the calls it reads from each formula's text
 * (src/taskpane/formula-calls.ts), both through src/functions/frozen-provenance.ts. The functions' metadata is the
 * built functions.json; their results come from stand-ins (what is compared is how each side describes the calls).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseRangeAddress } from "../../src/formula/a1";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import { readBook } from "../../src/host/book";
import { WorkbookEngine } from "../../src/host/engine";
import { parseFunctionsMetadata } from "../../src/host/metadata";
import { provenanceOf, withValues } from "../../src/host/provenance";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import type { PriceRecord } from "../../src/api/schemas";
import type { ProvenanceRow } from "../../src/prices/provenance";
import type { LineageKey, PriceKey } from "../../src/prices/types";
import { DIST, ensureBuilt } from "../../src/runner/host-page";
import { describeWithCalls } from "../../src/taskpane/freeze";
import { pricesCalls } from "../../src/taskpane/formula-calls";

const TODAY = "2024-03-08";
const SERVICE = "https://svc/physical/v2";

/** A client whose lineage knows every key; each request it names left at a later time than the one before. */
function knowingClient() {
  let sent = Date.UTC(2024, 2, 8, 9);
  return {
    price: async (key: PriceKey): Promise<PriceRecord> => ({ date: key.date ?? "2024-03-04", assessmentDate: "2024-03-04T16:30:00.000+00:00", revision: 1, low: 1, mid: 2, high: 3 }),
    lineage: (key: LineageKey) => {
      sent += 60_000;
      const endpoint = "reference" in key ? "/References" : "instrument" in key || "instruments" in key ? "/Instruments" : "fromDate" in key ? "/Prices/History" : "/Prices";
      return { key: "k", kind: "price" as const, fromCache: false, requestId: 1, askedAt: 1, request: { id: 1, endpoint, method: "GET" as const, params: {}, sentAt: sent, attempts: 1, retryDelaysMs: [], keys: 1 } };
    },
  };
}

describe("provenance of frozen cells: the pane's Freeze and the runner's --freeze", () => {
  beforeAll(() => ensureBuilt(() => undefined), 600_000);

  it("write the same rows, column for column, for the same cells (only the time of retrieval may differ)", async () => {
    const metadata = parseFunctionsMetadata(JSON.parse(readFileSync(join(DIST, "functions.json"), "utf8")));
    const runtime = createCustomFunctionsRuntime();
    for (const fn of metadata) {
      const result = fn.result.dimensionality === "matrix" ? [[2, 3]] : 2;
      // a streaming function (LIVE) gives its value through the invocation, as Excel's do
      runtime.global.associate(fn.id, fn.options.stream ? (...args: unknown[]) => (args.at(-1) as { setResult(value: unknown): void }).setResult(result) : () => result);
    }
    const engine = new WorkbookEngine({ runtime, metadata, namespace: "PRICES", today: () => isoDateToSerial(TODAY, "1900") });
    engine.load(
      readBook({
        cells: {
          A1: "MB-AL-0004",
          A2: "AG-WHE-0058",
          B1: "2024-03-04",
          C1: '=PRICES.MID(A1,"2024-03-04")',
          C2: "=PRICES.MID(A2,B1)",
          C3: '=AVERAGE(PRICES.HISTORY(A1,"2024-03-01","2024-03-08","mid",0))',
          C4: '=PRICES.INSTRUMENT(A1,"currency")',
          C5: "=PRICES.CURVE(A2)",
          C6: "=PRICES.MID(A1,TODAY()-1)",
          C7: '=PRICES.LOW(A1:A2,"2024-03-04")',
          C9: '=PRICES.AVERAGE(A1,"Monthly",B1)*2',
          C10: '=PRICES.REFERENCE("currency")',
          C11: '=PRICES.PRICE(A2,"2024-03-04","midChangeSincePrevious","WeeklyAverage")',
          C12: '=PRICES.LIVE(A1,"high")',
        },
      }),
    );
    await engine.evaluate();
    const formulas = engine.customCalls();
    expect([...formulas.keys()]).toEqual(["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C9", "C10", "C11", "C12"]);
    const grid = (range: string): unknown[][] => {
      const area = parseRangeAddress(range);
      if (!area) throw new Error(`not a range: ${range}`);
      return Array.from({ length: area.bottom - area.top + 1 }, (_, r) => Array.from({ length: area.right - area.left + 1 }, (_, c) => engine.value(area.top + r, area.left + c)));
    };

    // the runner: src/host/page-api.ts's evaluateWorkbook with provenance
    const runner = await provenanceOf("Model", withValues(formulas, (row, col) => engine.value(row, col)), knowingClient(), SERVICE, "1900");
    // the pane: src/taskpane/freeze.ts's freeze, one result per formula as Excel gives it
    const describe = describeWithCalls({ calls: (formula) => pricesCalls(formula, async (address) => grid(address), TODAY), client: knowingClient(), serviceUrl: SERVICE, system: "1900" });
    const pane = (await Promise.all([...formulas].map(([address, { text, resultRange }]) => describe({ sheet: "Model", address, formula: text, resultRange, values: grid(resultRange) })))).flat();

    const withoutTime = (rows: readonly ProvenanceRow[]): Omit<ProvenanceRow, "retrievedAt">[] => rows.map(({ retrievedAt: _retrievedAt, ...rest }) => rest);
    expect(runner.length).toBeGreaterThanOrEqual(formulas.size);
    expect(runner.map((row) => [row.address, row.symbol, row.dateAsked])).toEqual([
      ["C1", "MB-AL-0004", "2024-03-04"],
      ["C2", "AG-WHE-0058", "2024-03-04"],
      ["C3", "MB-AL-0004", "2024-03-01..2024-03-08"],
      ["C4", "MB-AL-0004", "current record"],
      ["C5", "AG-WHE-0058", "latest"],
      ["C6", "MB-AL-0004", "2024-03-07"],
      ["C7", "MB-AL-0004", "2024-03-04"],
      ["C8", "AG-WHE-0058", "2024-03-04"],
      ["C9", "MB-AL-0004", "2024-03-04"],
      ["C10", "Currency", "current list"],
      ["C11", "AG-WHE-0058", "2024-03-04"],
      // a live cell is frozen as the latest value it showed
      ["C12", "MB-AL-0004", "latest"],
    ]);
    expect(withoutTime(pane)).toEqual(withoutTime(runner));
    expect(runner.find((row) => row.address === "C12")?.field).toBe("high");
    expect(pane.every((row) => row.retrievedAt !== "") && runner.every((row) => row.retrievedAt !== "")).toBe(true);
  });
});
