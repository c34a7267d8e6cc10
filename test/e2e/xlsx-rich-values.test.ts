/**
 * Rich prices through the runner into a file (`--values rich`): a file holds no data types, so each price is written
 * as its number with its number format (a numFmt and a cell format cloned from the cell's own in xl/styles.xml), and
 * the runner says how many. The styles part is the one entry beyond the plain refresh's that changes, and only by
 * additions; LibreOffice shows the prices with their currency and unit.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { fromEpochDay } from "../../src/api/dates";
import type { RunningSandbox } from "../../src/sandbox/server";
import { libreOfficeSheets, shown } from "../support/libreoffice";
import { sandboxGet, sandboxToken } from "../support/service";
import { excel365Book } from "./excel365-book";
import { type MainRun, runMain } from "./run-main";
import { prices, TODAY, type JsonObject } from "./support";

jest.setTimeout(300_000);

const DATE = "2025-05-14";
const FROM = "2025-05-01";
const TO = "2025-05-31";
const MODEL = "xl/worksheets/sheet1.xml";
const STYLES = "xl/styles.xml";
let sandbox: RunningSandbox;
let dir: string;
let symbols: [string, string];
let mids: number[];
let suffixes: string[];
let input: string;
let refreshed: MainRun;
let frozen: MainRun;

function entries(path: string): Map<string, string> {
  return new Map(Object.entries(unzipSync(readFileSync(path))).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

function element(xml: string, name: string): string {
  return new RegExp(`<${name}\\b[^>]*?(?:/>|>[\\s\\S]*?</${name}>)`).exec(xml)?.[0] ?? "";
}

function xfs(styles: string): string[] {
  return element(styles, "cellXfs").match(/<xf\b[^>]*?(?:\/>|>[\s\S]*?<\/xf>)/g) ?? [];
}

function styleOf(sheet: string, cell: string): number {
  return Number(new RegExp(`<c r="${cell}"[^>]*? s="(\\d+)"`).exec(sheet)?.[1] ?? 0);
}

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-e2e-rich-"));
  const chosen = sandbox.data.instruments
    .filter((instrument) => instrument.record.symbol.startsWith("MB-") && instrument.record.launchDate < "2024-01-01" && instrument.record.status === "Active")
    .filter((instrument) => fromEpochDay(instrument.series.days[0] ?? 0) < FROM)
    .slice(0, 2);
  symbols = [chosen[0]?.record.symbol ?? "", chosen[1]?.record.symbol ?? ""];
  suffixes = chosen.map((instrument) => ` ${instrument.record.currencyId}/${instrument.record.unitOfMeasureId}`);
  const token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const response = await sandboxGet(sandbox, "/Prices", { Symbols: symbols.join(","), Dates: DATE }, token);
  const dated = JSON.parse(response.text) as JsonObject;
  mids = symbols.map((symbol) => Number(prices(dated, symbol)[0]?.mid));
  const historyResponse = await sandboxGet(sandbox, "/Prices/History", { Symbols: symbols[0], FromDate: FROM, ToDate: TO }, token);
  const history = prices(JSON.parse(historyResponse.text) as JsonObject, symbols[0])
    .map((record) => ({ date: String(record.date), mid: Number(record.mid) }))
    .sort((a, b) => a.date.localeCompare(b.date));
  input = join(dir, "model.xlsx");
  writeFileSync(input, excel365Book({ symbols, date: DATE, from: FROM, to: TO, history }).bytes);
  refreshed = await runMain([input, "--out", join(dir, "refreshed.xlsx"), "--values", "rich", "--report", join(dir, "report.json"), "--today", TODAY]);
  // --freeze adds a sheet, which the book's locked structure forbids: the same book unlocked
  const unlocked = join(dir, "model-unlocked.xlsx");
  writeFileSync(unlocked, excel365Book({ symbols, date: DATE, from: FROM, to: TO, history, structureLocked: false }).bytes);
  frozen = await runMain([unlocked, "--out", join(dir, "frozen.xlsx"), "--values", "rich", "--freeze", "--today", TODAY]);
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("--values rich into an .xlsx", () => {
  it("says how many rich values it wrote as numbers with their number format, on stderr, stdout and in --report", () => {
    expect(refreshed.code).toBe(0);
    const count = Number(/workbook: (\d+) rich values written as numbers with their number format/.exec(refreshed.errors)?.[1]);
    // B2 and B3 (PRICES.MID); the history stays plain numbers
    expect(count).toBe(2);
    expect(JSON.parse(refreshed.printed)).toMatchObject({ richValues: count });
    expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8"))).toMatchObject({ richValues: count });
  });

  it("changes the styles part only by a number format per currency and unit and cell formats cloned from the cells' own", () => {
    const before = entries(input);
    const after = entries(join(dir, "refreshed.xlsx"));
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [part, text] of before) {
      if (part === MODEL || part === "xl/workbook.xml" || part === STYLES) continue;
      expect([part, after.get(part) === text]).toEqual([part, true]);
    }
    const stylesBefore = before.get(STYLES) ?? "";
    const stylesAfter = after.get(STYLES) ?? "";
    const mask = (xml: string): string => xml.replace(element(xml, "numFmts"), "<numFmts/>").replace(element(xml, "cellXfs"), "<cellXfs/>");
    expect(mask(stylesAfter)).toBe(mask(stylesBefore));
    const oldXfs = xfs(stylesBefore);
    const newXfs = xfs(stylesAfter);
    expect(newXfs.slice(0, oldXfs.length)).toEqual(oldXfs);
    expect(element(stylesAfter, "cellXfs")).toContain(`<cellXfs count="${newXfs.length}">`);
    const formats = new Map([...element(stylesAfter, "numFmts").matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\/>/g)].map((match) => [Number(match[1]), (match[2] ?? "").replace(/&quot;/g, '"')]));
    const added = [...formats].filter(([id]) => id > 164);
    expect(new Set(added.map(([, code]) => code))).toEqual(new Set(suffixes.map((suffix) => `#,##0.00##"${suffix}"`)));

    const sheet = after.get(MODEL) ?? "";
    // B2 was style 3 (#,##0.00): the same cell format with the price's format
    const b2 = newXfs[styleOf(sheet, "B2")] ?? "";
    expect(b2).toBe((oldXfs[3] ?? "").replace('numFmtId="4"', `numFmtId="${/numFmtId="(\d+)"/.exec(b2)?.[1] ?? ""}"`));
    expect(formats.get(Number(/numFmtId="(\d+)"/.exec(b2)?.[1]))).toBe(`#,##0.00##"${suffixes[0] ?? ""}"`);
    expect(formats.get(Number(/numFmtId="(\d+)"/.exec(newXfs[styleOf(sheet, "B3")] ?? "")?.[1]))).toBe(`#,##0.00##"${suffixes[1] ?? ""}"`);
    // both cells had style 3: one clone per format, shared by the cells with the same currency and unit
    expect(newXfs.length).toBe(oldXfs.length + new Set(suffixes).size);
    // the history is no rich value: its cells keep their form
    expect(sheet).toMatch(/<c r="F2" t="str">/);
    expect(sheet).toMatch(/<c r="G2"><v>/);
  });

  it("LibreOffice shows each price with its currency and unit, in the refreshed and the frozen copy", () => {
    expect(frozen.code).toBe(0);
    expect(frozen.errors).toMatch(/rich values written as numbers with their number format/);
    for (const copy of ["refreshed.xlsx", "frozen.xlsx"]) {
      const model = libreOfficeSheets(join(dir, copy), { asShown: true }).get("Model");
      symbols.forEach((_, index) => {
        const text = shown(model, `B${index + 2}`);
        expect([copy, text.endsWith(suffixes[index] ?? "?")]).toEqual([copy, true]);
        expect(Number(text.slice(0, -(suffixes[index] ?? "").length).replace(/,/g, ""))).toBe(mids[index]);
      });
    }
  });
});
