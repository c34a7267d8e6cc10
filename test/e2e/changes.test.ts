/**
 * The change report end to end: a model refreshed by the runner with `--cache` at one day, then at a day a week later
 * with `--changes`, against its own sandbox (corrections made more frequent so that a week holds some). Every cell the
 * report lists, and its reason, is compared with the sandbox's own data at the two instants: each correction published
 * in between is reported as a correction, each new assessment as new, and nothing else (recall and precision 100 %).
 * `--plan` at the later day sends no request and plans exactly the requests the refresh then sends. A HISTORY spill
 * is compared cell by cell: a correction inside it is reported at the cell where it shows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { asDynamicArrays } from "./dynamic-arrays";
import { fromEpochDay, toEpochDay } from "../../src/api/dates";
import { CHANGES_COLUMNS } from "../../src/sessions/cell-changes";
import { generateDataSet } from "../../src/sandbox/data/generator";
import type { AssessmentSeries, DataSet } from "../../src/sandbox/data/model";
import { lastIndexOnOrBefore } from "../../src/sandbox/data/series";
import type { RunnerOptions } from "../../src/runner/arguments";
import { runWorkbook } from "../../src/runner/workbook-runner";

jest.setTimeout(300_000);

const T1 = "2025-06-20";
const T2 = "2025-06-27";
const CORRECTION_RATE = 0.05;
let dir: string;
let before: DataSet;
let after: DataSet;
let symbols: string[];
let dates: string[];

/** The mid a dated cell shows (the latest assessment on or before the date), or the latest mid. */
function midOn(series: AssessmentSeries, date: string | undefined): { index: number; mid: number } {
  const index = date === undefined ? series.length - 1 : lastIndexOnOrBefore(series, toEpochDay(date));
  return { index, mid: series.mid[index] ?? Number.NaN };
}

function seriesOf(data: DataSet, symbol: string): AssessmentSeries {
  const found = data.instruments.find((item) => item.record.symbol === symbol);
  if (!found) throw new Error(`no ${symbol}`);
  return found.series;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "prices-changes-"));
  before = generateDataSet({ today: T1, correctionRate: CORRECTION_RATE });
  after = generateDataSet({ today: T2, correctionRate: CORRECTION_RATE });
  const daily = after.instruments.filter((item) => item.record.frequency === "Daily" && item.record.status === "Active");
  const corrected = daily.filter((item) => {
    const old = seriesOf(before, item.record.symbol);
    return [...old.revision].some((revision, index) => revision !== item.series.revision[index]);
  });
  const plain = daily.filter((item) => !corrected.includes(item)).slice(0, 10);
  symbols = [...corrected, ...plain].map((item) => item.record.symbol);
  // Days every chosen instrument was assessed on by T2, from two weeks before T1 (a holiday would make a carried value).
  dates = [];
  for (let day = toEpochDay(T1) - 14; day <= toEpochDay(T2); day += 1) {
    const date = fromEpochDay(day);
    if (symbols.every((symbol) => seriesOf(after, symbol).days.includes(day))) dates.push(date);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function writeModel(path: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Prices");
  sheet.getCell(1, 1).value = "Symbol";
  dates.forEach((date, column) => (sheet.getCell(1, column + 2).value = date));
  sheet.getCell(1, dates.length + 2).value = "latest";
  symbols.forEach((symbol, row) => {
    sheet.getCell(row + 2, 1).value = symbol;
    dates.forEach((_date, column) => {
      const letter = sheet.getColumn(column + 2).letter;
      sheet.getCell(row + 2, column + 2).value = { formula: `PRICES.MID($A${row + 2},${letter}$1)`, result: 0 };
    });
    sheet.getCell(row + 2, dates.length + 2).value = { formula: `PRICES.MID($A${row + 2})`, result: 0 };
  });
  await workbook.xlsx.writeFile(path);
}

type Printed = { stats: { requests: number; client: Record<string, number> }; plan?: Record<string, number>; changes?: string };

async function refresh(input: string, out: string, today: string, extra: Partial<RunnerOptions> = {}): Promise<Printed> {
  const options: RunnerOptions = { bookPath: input, out, service: { kind: "sandbox", today, sandbox: { correctionRate: CORRECTION_RATE } }, cache: join(dir, "cache"), ...extra };
  return (await runWorkbook(options, () => undefined)) as unknown as Printed;
}

/** RFC 4180 fields: quoted ones may hold commas and doubled quotes. */
function parseCsv(text: string): string[][] {
  return text
    .trim()
    .split("\r\n")
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((match) => (match[1] ?? "").replace(/^"|"$/g, "").replace(/""/g, '"')).slice(0, CHANGES_COLUMNS.length));
}

it("reports every correction published between two days a week apart as a correction, and every new assessment as new", async () => {
  const model = join(dir, "model.xlsx");
  const first = join(dir, "first.xlsx");
  const second = join(dir, "second.xlsx");
  const changes = join(dir, "changes.csv");
  await writeModel(model);
  const cold = await refresh(model, first, T1);
  expect(cold.stats.requests).toBeGreaterThan(0);

  // The plan at T2 sends nothing and names the requests the refresh then sends.
  const planned = await refresh(first, join(dir, "planned.xlsx"), T2, { plan: true });
  expect(planned.stats.requests).toBe(0);
  expect(planned.plan?.keys).toBe(symbols.length * (dates.length + 1));

  const warm = await refresh(first, second, T2, { changes });
  expect(warm.changes).toMatch(/PRICES values changed/);
  expect(planned.plan?.requests).toBe(warm.stats.client.requestsSent);
  expect(planned.plan?.records).toBe(warm.stats.client.recordsRequested);
  // The refresh then asked every key once more for the report (a cache hit each), so its own hits are the rest.
  expect(planned.plan?.fromCache).toBe((planned.plan?.keys ?? 0) - (warm.stats.client.keysRequested ?? 0));
  // Final records came from the persistent cache: far fewer records asked than the cold refresh did.
  expect(warm.stats.client.recordsRequested ?? 0).toBeLessThan(cold.stats.client.recordsRequested ?? 0);
  expect(warm.stats.client.cacheHits).toBeGreaterThan(0);

  const expected = new Map<string, string>();
  symbols.forEach((symbol, row) => {
    const old = seriesOf(before, symbol);
    const now = seriesOf(after, symbol);
    [...dates, undefined].forEach((date, column) => {
      const was = midOn(old, date);
      const is = midOn(now, date);
      if (was.mid === is.mid) return;
      const cell = `${String.fromCharCode(66 + column)}${row + 2}`;
      expected.set(cell, date !== undefined && date <= T1 && was.index === is.index ? "correction" : "new assessment");
    });
  });
  const corrections = [...expected.values()].filter((reason) => reason === "correction").length;
  expect(corrections).toBeGreaterThanOrEqual(5);
  expect(dates.length + 1).toBeLessThan(26);

  const [header, ...rows] = parseCsv(readFileSync(changes, "utf8"));
  expect(header).toEqual([...CHANGES_COLUMNS]);
  const reported = new Map(rows.map((row) => [row[1] ?? "", row[5] ?? ""]));
  expect(reported).toEqual(expected);
  for (const row of rows.filter((fields) => fields[5] === "correction")) {
    // Both values, both revisions.
    expect(Number(row[9] ?? 0)).toBeGreaterThan(Number(row[8] ?? 0));
    expect(row[3]).not.toBe(row[4]);
  }
});

it("reports a correction inside a HISTORY spill at the cell where it shows, not only at the spill's first cell", async () => {
  const model = join(dir, "history.xlsx");
  const first = join(dir, "history-first.xlsx");
  const second = join(dir, "history-second.xlsx");
  const changes = join(dir, "history-changes.csv");
  const from = fromEpochDay(toEpochDay(T1) - 14);
  const cache = join(dir, "history-cache");
  // One spill per symbol, side by side: a header row, then date, low, mid and high for each day assessed (ascending).
  // Below them the same without an end date (to today): the spill grows by the days assessed since, which had no cell before.
  const width = 5;
  const below = 40;
  const column = (index: number): string => (index < 26 ? String.fromCharCode(65 + index) : `${String.fromCharCode(64 + Math.floor(index / 26))}${String.fromCharCode(65 + (index % 26))}`);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Histories");
  symbols.forEach((symbol, index) => {
    sheet.getCell(1, index * width + 1).value = { formula: `PRICES.HISTORY("${symbol}","${from}","${T1}")`, result: 0 };
    sheet.getCell(below + 1, index * width + 1).value = { formula: `PRICES.HISTORY("${symbol}","${from}")`, result: 0 };
  });
  await workbook.xlsx.writeFile(model);
  // spills, as Excel 365 saves them (a plain formula is a legacy one, showing its first cell)
  asDynamicArrays(model, { "xl/worksheets/sheet1.xml": symbols.flatMap((_, index) => [1, below + 1].map((row) => `${column(index * width)}${row}`)) });
  await refresh(model, first, T1, { cache });
  const warm = await refresh(first, second, T2, { changes, cache });
  expect(warm.changes).toMatch(/PRICES values changed/);

  const expected = new Map<string, string>();
  symbols.forEach((symbol, index) => {
    const old = seriesOf(before, symbol);
    const now = seriesOf(after, symbol);
    const rows: number[] = [];
    for (let at = 0; at < now.length; at += 1) {
      const day = now.days[at] ?? 0;
      if (day >= toEpochDay(from) && day <= toEpochDay(T1)) rows.push(at);
    }
    rows.forEach((at, row) => {
      (["low", "mid", "high"] as const).forEach((field, offset) => {
        // The reason and both revisions of the day's record, as the sandbox holds them at the two days.
        if (old[field][at] === now[field][at]) return;
        for (const top of [0, below]) expected.set(`${column(index * width + 1 + offset)}${top + row + 2}`, `correction ${old.revision[at] ?? ""} ${now.revision[at] ?? ""}`);
      });
    });
  });
  // Corrections inside the spills, not on their first row only.
  expect([...expected.keys()].filter((cell) => !/\D2$/.test(cell)).length).toBeGreaterThanOrEqual(5);

  const [header, ...rows] = parseCsv(readFileSync(changes, "utf8"));
  expect(header).toEqual([...CHANGES_COLUMNS]);
  const reported = new Map(rows.map((row) => [row[1] ?? "", `${row[5] ?? ""} ${row[8] ?? ""} ${row[9] ?? ""}`]));
  expect(reported).toEqual(expected);
  for (const row of rows) {
    // Both values; the correction published after the assessment it corrects.
    expect(row[3]).not.toBe(row[4]);
    expect((row[7] ?? "") >= (row[6] ?? "")).toBe(true);
  }
});
