/** Why a key's value changed, named from its two records; the log the persistent cache feeds; the one-line summary. */
import { ChangeLog, changeReason, summarizeChanges, type RecordSide } from "../../src/sessions/change-log";
import { cellChanges, changesCsv, sameCellValue } from "../../src/sessions/cell-changes";
import { type ProvenanceRow, blankProvenanceRow } from "../../src/prices/provenance";
import { openPersistentCache } from "../../src/prices/persistent";
import type { StoredEntry } from "../../src/prices/cache";
import { AuthError, InvalidInstrumentError, NoDataError } from "../../src/prices";

const ID = "p|MB-CU-0001|2025-06-10|None|";

function record(date: string, assessed: string, revision: number, mid: number): RecordSide {
  return { date, assessmentDate: `${assessed}T16:30:00+00:00`, revision, low: mid - 1, mid, high: mid + 1 };
}

function entry(value: RecordSide): StoredEntry {
  return { kind: "price", symbol: "MB-CU-0001", value, storedAt: 0, expiresAt: 1, bytes: 100 };
}

describe("changeReason", () => {
  it("finds no change in the same record", () => {
    expect(changeReason(ID, record("2025-06-10", "2025-06-10", 0, 100), record("2025-06-10", "2025-06-10", 0, 100))).toBeUndefined();
  });
  it("names a correction: the same day, a higher revision published later", () => {
    expect(changeReason(ID, record("2025-06-10", "2025-06-10", 0, 100), record("2025-06-10", "2025-06-12", 1, 101), "2025-06-10")).toBe("correction");
    // A carried value whose assessment was corrected (published before the date asked) is a correction too.
    expect(changeReason(ID, record("2025-06-10", "2025-06-06", 0, 100), record("2025-06-10", "2025-06-08", 1, 99), "2025-06-10")).toBe("correction");
  });
  it("names a new assessment of a latest value", () => {
    expect(changeReason("p|MB-CU-0001|latest|None|", record("2025-06-10", "2025-06-10", 0, 100), record("2025-06-11", "2025-06-11", 0, 102))).toBe("new assessment");
  });
  it("tells a carried-forward value that became assessed from a date that had not come when it was fetched", () => {
    const carried = record("2025-06-10", "2025-06-06", 0, 100);
    const assessed = record("2025-06-10", "2025-06-10", 0, 103);
    expect(changeReason(ID, carried, assessed, "2025-06-10")).toBe("carried forward became assessed");
    expect(changeReason(ID, carried, assessed, "2025-06-09")).toBe("new assessment");
  });
  it("names a conversion rate: the same assessment converted at another rate", () => {
    const converted = "p|MB-CU-0001|2025-06-10|None||EUR/LB";
    expect(changeReason(converted, record("2025-06-10", "2025-06-10", 0, 0.2324), record("2025-06-10", "2025-06-10", 0, 0.2331))).toBe("conversion rate");
    expect(changeReason(ID, record("2025-06-10", "2025-06-10", 0, 100), record("2025-06-10", "2025-06-10", 0, 100.5))).toBe("value changed");
  });
});

describe("ChangeLog", () => {
  it("keeps the value a refresh started from, and forgets a key that changed back", () => {
    const log = new ChangeLog();
    const first = record("2025-06-10", "2025-06-10", 0, 100);
    const second = record("2025-06-10", "2025-06-12", 1, 101);
    log.replaced(ID, entry(first), entry(second), "2025-06-10");
    log.replaced(ID, entry(second), entry(record("2025-06-10", "2025-06-13", 2, 102)), "2025-06-12");
    expect(log.list()).toEqual([expect.objectContaining({ reason: "correction", before: first, after: expect.objectContaining({ revision: 2 }) })]);
    log.replaced(ID, entry(second), entry(first), "2025-06-13");
    expect(log.list()).toEqual([]);
  });
  it("names an entitlement that now refuses, and any other failure as such", () => {
    const log = new ChangeLog();
    log.failed(ID, entry(record("2025-06-10", "2025-06-10", 0, 100)), new InvalidInstrumentError("MB-CU-0001", "not permitted"));
    log.failed("p|AG-X|2025-06-10|None|", entry(record("2025-06-10", "2025-06-10", 0, 100)), new AuthError({ reason: "forbidden", status: 403 }));
    log.failed("p|AG-Y|2025-06-10|None|", entry(record("2025-06-10", "2025-06-10", 0, 100)), new NoDataError("AG-Y", "2025-06-10"));
    expect(log.list().map((change) => change.reason)).toEqual(["entitlement now refuses", "entitlement now refuses", "now fails"]);
    expect(summarizeChanges(log.list().map((change) => change.reason))).toBe("3 PRICES values changed: 2 entitlement now refuses, 1 now fails");
  });
});

const HISTORY_ID = "h|MB-CU-0001|2025-06-09|2025-06-11|AssessmentDays|false||None|";

/** A history as the cache keeps it (newest first, days assessed as an array). */
function historyEntry(prices: RecordSide[]): StoredEntry {
  return { kind: "history", symbol: "MB-CU-0001", value: { symbol: "MB-CU-0001", firstDate: "2025-06-09", lastDate: "2025-06-11", prices, assessedDates: prices.map((price) => price.date) }, storedAt: 0, expiresAt: 1, bytes: 100 };
}

describe("ChangeLog of a history", () => {
  it("names each day whose record changed, with the range the history asked", () => {
    const log = new ChangeLog();
    const days = [record("2025-06-11", "2025-06-11", 0, 102), record("2025-06-10", "2025-06-10", 0, 101), record("2025-06-09", "2025-06-09", 0, 100)];
    const corrected = [days[0], record("2025-06-10", "2025-06-13", 1, 99), days[2]] as RecordSide[];
    log.replaced(HISTORY_ID, historyEntry(days), historyEntry(corrected), "2025-06-11");
    expect(log.list()).toEqual([
      { id: HISTORY_ID, symbol: "MB-CU-0001", dateAsked: "2025-06-10", within: "2025-06-09..2025-06-11", reason: "correction", before: days[1], after: corrected[1] },
    ]);
  });
});

describe("ChangeLog fed by the persistent cache", () => {
  it("compares a history asked to today with the one of the same range kept from an earlier day", async () => {
    let lines: readonly string[] = [];
    const backend = { load: () => Promise.resolve({ lines, intact: false }), save: (_partition: unknown, saved: readonly string[]) => Promise.resolve(void (lines = [...saved])), clear: () => Promise.resolve(void (lines = [])) };
    const days = [record("2025-06-11", "2025-06-11", 0, 102), record("2025-06-10", "2025-06-10", 0, 101), record("2025-06-09", "2025-06-09", 0, 100)];
    const first = await openPersistentCache({ baseUrl: "https://prices.example.com", subject: "someone", backend, today: () => "2025-06-11", scheduleFlush: () => undefined });
    first.set(HISTORY_ID, historyEntry(days));
    await first.flush();

    const log = new ChangeLog();
    const next = await openPersistentCache({ baseUrl: "https://prices.example.com", subject: "someone", backend, today: () => "2025-06-12", scheduleFlush: () => undefined, observer: log });
    const corrected = [record("2025-06-12", "2025-06-12", 0, 103), days[0], record("2025-06-10", "2025-06-12", 1, 99), days[2]] as RecordSide[];
    next.set(HISTORY_ID.replace("|2025-06-11|", "|2025-06-12|"), historyEntry(corrected));
    expect(log.list()).toEqual([expect.objectContaining({ dateAsked: "2025-06-10", within: "2025-06-09..2025-06-12", reason: "correction", before: days[1], after: corrected[2] })]);
  });
});

describe("the change report's cells", () => {
  it("compares values as a cell shows them and writes RFC 4180 CSV", () => {
    expect(sameCellValue(512.37, 512.37 + 1e-13)).toBe(true);
    expect(sameCellValue(512.37, 512.38)).toBe(false);
    expect(sameCellValue({ error: "#N/A" }, { kind: "error", code: "#N/A", message: "x" })).toBe(true);
    const csv = changesCsv([
      { sheet: "Prices", cell: "B2", formula: 'PRICES.MID($A2,"2025-06-10")', old: 100, new: 101, reason: "correction", oldAssessmentDate: "2025-06-10", newAssessmentDate: "2025-06-12", oldRevision: 0, newRevision: 1 },
    ]);
    expect(csv).toBe('sheet,cell,formula,old,new,reason,old assessment date,new assessment date,old revision,new revision\r\nPrices,B2,"PRICES.MID($A2,""2025-06-10"")",100,101,correction,2025-06-10,2025-06-12,0,1\r\n');
  });

  it("compares every cell of a history's spill, and names the day of the row where a correction shows", () => {
    const log = new ChangeLog();
    const days = [record("2025-06-11", "2025-06-11", 0, 102), record("2025-06-10", "2025-06-10", 0, 101), record("2025-06-09", "2025-06-09", 0, 100)];
    const corrected = [days[0], record("2025-06-10", "2025-06-13", 1, 99), days[2]] as RecordSide[];
    log.replaced(HISTORY_ID, historyEntry(days), historyEntry(corrected), "2025-06-11");
    // HISTORY("MB-CU-0001", ...) at B2: a header row, then date, low, mid and high for each day, oldest first.
    const grid = (prices: RecordSide[]): Record<string, unknown> => {
      const cells: Record<string, unknown> = { B2: "date", C2: "low", D2: "mid", E2: "high" };
      [...prices].reverse().forEach((price, index) => Object.assign(cells, { [`B${index + 3}`]: price.date, [`C${index + 3}`]: price.low, [`D${index + 3}`]: price.mid, [`E${index + 3}`]: price.high }));
      return cells;
    };
    const row: ProvenanceRow = {
      ...blankProvenanceRow({ sheet: "Prices", address: "B2", formula: '=PRICES.HISTORY("MB-CU-0001","2025-06-09","2025-06-11")', serviceUrl: "", resultRange: "B2:E5" }),
      symbol: "MB-CU-0001",
      dateAsked: "2025-06-09..2025-06-11",
    };
    const saved = grid(days);
    const changes = cellChanges({ provenance: [row], sheets: [{ name: "Prices", values: grid(corrected) }] }, { text: undefined, changes: log.list(), planned: undefined }, (_sheet, address) => saved[address]);
    const side = { formula: row.formula, reason: "correction", oldAssessmentDate: "2025-06-10", newAssessmentDate: "2025-06-13", oldRevision: 0, newRevision: 1 };
    expect(changes).toEqual([
      { sheet: "Prices", cell: "C4", old: 100, new: 98, ...side },
      { sheet: "Prices", cell: "D4", old: 101, new: 99, ...side },
      { sheet: "Prices", cell: "E4", old: 102, new: 100, ...side },
    ]);
  });

  it("reports each cell of a price formula's spilled result once, with its own key's change", () => {
    const log = new ChangeLog();
    const ids = ["p|MB-CU-0001|2025-06-10|None|", "p|MB-CU-0001|2025-06-11|None|"];
    log.replaced(ids[0] ?? "", entry(record("2025-06-10", "2025-06-10", 0, 100)), entry(record("2025-06-10", "2025-06-12", 1, 99)), "2025-06-11");
    log.replaced(ids[1] ?? "", entry(record("2025-06-11", "2025-06-11", 0, 101)), entry(record("2025-06-11", "2025-06-13", 1, 98)), "2025-06-11");
    const base = { ...blankProvenanceRow({ sheet: "Prices", address: "", formula: '=PRICES.MID("MB-CU-0001",B1:C1)', serviceUrl: "", resultRange: "B2:C2" }), symbol: "MB-CU-0001" };
    const rows: ProvenanceRow[] = [
      { ...base, address: "B2", dateAsked: "2025-06-10", assessmentDate: "2025-06-12", revision: 1 },
      { ...base, address: "C2", dateAsked: "2025-06-11", assessmentDate: "2025-06-13", revision: 1 },
    ];
    const saved: Record<string, number> = { B2: 100, C2: 101 };
    const changes = cellChanges({ provenance: rows, sheets: [{ name: "Prices", values: { B2: 99, C2: 98 } }] }, { text: undefined, changes: log.list(), planned: undefined }, (_sheet, address) => saved[address]);
    expect(changes.map((change) => [change.cell, change.reason, change.old, change.new, change.newAssessmentDate])).toEqual([
      ["B2", "correction", 100, 99, "2025-06-12"],
      ["C2", "correction", 101, 98, "2025-06-13"],
    ]);
  });
});
