/**
 * `npm run workbook -- model.xlsx --out refreshed.xlsx [--freeze]` end to end: the tests write the input workbooks
 * (one with Excel's saved `_xldudf_` form), the runner refreshes them against its own sandbox, and LibreOffice Calc
 * (a real spreadsheet application, headless) reads the outputs; what it shows is compared with the service's answers.
 */
import { asDynamicArrays } from "./dynamic-arrays";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
import { fromEpochDay } from "../../src/api/dates";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import type { RunningSandbox } from "../../src/sandbox/server";
import { type MainRun, runMain } from "./run-main";
import { libreOfficeSheets, shown } from "../support/libreoffice";
import { sandboxGet, sandboxToken } from "../support/service";
import { prices, serialOf, TODAY, type JsonObject } from "./support";

jest.setTimeout(240_000);

const DATE = "2025-05-14";
const FROM = "2025-05-01";
const TO = "2025-05-31";
let sandbox: RunningSandbox;
let dir: string;
let token: string;

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  dir = mkdtempSync(join(tmpdir(), "prices-e2e-xlsx-"));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function service(path: string, query: Record<string, string>): Promise<JsonObject> {
  const response = await sandboxGet(sandbox, path, query, token);
  expect(response.status).toBe(200);
  return JSON.parse(response.text) as JsonObject;
}

function symbols(count: number): string[] {
  return sandbox.data.instruments
    .filter((instrument) => instrument.record.symbol.startsWith("MB-") && instrument.record.launchDate < "2024-01-01" && instrument.record.status === "Active")
    .filter((instrument) => fromEpochDay(instrument.series.days[0] ?? 0) < FROM)
    .map((instrument) => instrument.record.symbol)
    .slice(0, count);
}

const run = (args: readonly string[]): Promise<MainRun> => runMain(args);

function digest(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** The model a finance team would keep: PRICES in Excel's saved form and the plain form, a formula on top, a spill, an average of a spill, and a sheet of notes. */
async function writeModel(path: string, [first, second]: readonly string[]): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const model = workbook.addWorksheet("Model");
  model.getCell("A1").value = "Symbol";
  model.getCell("B1").value = "Mid";
  model.getCell("A2").value = first ?? "";
  model.getCell("A3").value = second ?? "";
  model.getCell("B2").value = { formula: `_xldudf_PRICES_MID(A2,"${DATE}")` };
  model.getCell("B3").value = { formula: `[2]!_xldudf_PRICES_MID(A3,"${DATE}")` };
  model.getCell("C2").value = { formula: "B2/B3-1" };
  model.getCell("C2").numFmt = "0.0000";
  model.getCell("D2").value = { formula: `AVERAGE(_xldudf_PRICES_HISTORY(A2,"${FROM}","${TO}","mid",0))` };
  model.getCell("F1").value = { formula: `PRICES.HISTORY(A2,"${FROM}","${TO}","date,mid",0,,,,"text")` };
  model.getCell("A1").font = { bold: true };
  const notes = workbook.addWorksheet("Notes");
  notes.getCell("A1").value = "Prepared for the morning meeting";
  notes.getCell("A2").value = { formula: "1+1", result: 2 };
  await workbook.xlsx.writeFile(path);
  // the history spills, as Excel 365 saves a formula that does (a plain formula would be a legacy one: its first cell)
  asDynamicArrays(path, { "xl/worksheets/sheet1.xml": ["F1"] });
}

describe("npm run workbook with an .xlsx model", () => {
  const chosen: string[] = [];
  let model: string;
  let expected: { mids: number[]; history: { date: string; mid: number }[] };

  beforeAll(async () => {
    chosen.push(...symbols(2));
    expect(chosen).toHaveLength(2);
    model = join(dir, "model.xlsx");
    await writeModel(model, chosen);
    const dated = await service("/Prices", { Symbols: chosen.join(","), Dates: DATE });
    const history = await service("/Prices/History", { Symbols: chosen[0] ?? "", FromDate: FROM, ToDate: TO });
    expected = {
      mids: chosen.map((symbol) => Number(prices(dated, symbol)[0]?.mid)),
      // PRICES.HISTORY lists oldest first
      history: prices(history, chosen[0] ?? "")
        .map((record) => ({ date: String(record.date), mid: Number(record.mid) }))
        .sort((a, b) => a.date.localeCompare(b.date)),
    };
    expect(expected.history.length).toBeGreaterThan(2);
  });

  it("writes a refreshed copy that LibreOffice reads with the service's values, formulas and other sheets kept, the input untouched", async () => {
    const before = digest(model);
    const out = join(dir, "refreshed.xlsx");
    const result = await run([model, "--out", out, "--today", TODAY]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.printed)).toMatchObject({ out, frozen: 0 });
    // The two MIDs (one in Excel's saved form, one nested nowhere) share one /Prices request; the HISTORY inside
    // AVERAGE and the spilled one share one history request: the whole workbook's PRICES calls batch together.
    expect((JSON.parse(result.printed) as { stats: { requestsByPath: unknown } }).stats.requestsByPath).toEqual({ "/Prices": 1, "/Prices/History": 1 });
    expect(result.errors).toMatch(/workbook: read .*model\.xlsx: 2 sheets/);
    expect(digest(model)).toBe(before);

    const sheets = libreOfficeSheets(out);
    const shownModel = sheets.get("Model");
    const [b2, b3] = expected.mids;
    expect(Number(shown(shownModel, "B2"))).toBe(b2);
    expect(Number(shown(shownModel, "B3"))).toBe(b3);
    // The CSV holds the value, not its 0.0000 display.
    expect(Number(shown(shownModel, "C2"))).toBeCloseTo((b2 ?? 0) / (b3 ?? 1) - 1, 12);
    const average = expected.history.reduce((sum, record) => sum + record.mid, 0) / expected.history.length;
    expect(Number(shown(shownModel, "D2"))).toBeCloseTo(average, 6);
    expect(shown(sheets.get("Notes"), "A1")).toBe("Prepared for the morning meeting");

    const written = new ExcelJS.Workbook();
    await written.xlsx.readFile(out);
    const sheet = written.getWorksheet("Model");
    expect(sheet?.getCell("B2").formula).toBe(`_xldudf_PRICES_MID(A2,"${DATE}")`);
    expect(sheet?.getCell("C2").formula).toBe("B2/B3-1");
    expect(sheet?.getCell("C2").numFmt).toBe("0.0000");
    expect(sheet?.getCell("A1").font?.bold).toBe(true);
    // The spill: an array formula over its area, the fresh values cached in every cell.
    const anchor = sheet?.getCell("F1").value as { formula?: string; shareType?: string; ref?: string; result?: unknown };
    expect(anchor).toMatchObject({ shareType: "array", ref: `F1:G${expected.history.length}`, result: expected.history[0]?.date });
    expected.history.forEach((record, index) => {
      expect([index, sheet?.getCell(`G${index + 1}`).value]).toEqual([index, record.mid]);
    });
  });

  it("--freeze leaves values LibreOffice shows, other formulas, and a provenance sheet naming symbol, dates, revision and service", async () => {
    const out = join(dir, "frozen.xlsx");
    const result = await run([model, "--out", out, "--freeze", "--today", TODAY]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.printed)).toMatchObject({ frozen: 4 });

    const sheets = libreOfficeSheets(out);
    const shownModel = sheets.get("Model");
    expect(Number(shown(shownModel, "B2"))).toBe(expected.mids[0]);
    expect(Number(shown(shownModel, "B3"))).toBe(expected.mids[1]);
    expected.history.forEach((record, index) => {
      expect([shown(shownModel, `F${index + 1}`), Number(shown(shownModel, `G${index + 1}`))]).toEqual([record.date, record.mid]);
    });

    const provenance = sheets.get("Prices provenance") ?? [];
    const header = ["Sheet", "Address", "Formula", "Symbol", "Date asked", "Assessment date", "Assessed at", "Revision", "Carried", "Field", "Currency", "Unit", "Conversion", "Retrieved at", "Service URL", "Result range", "Error"];
    expect(provenance[0]).toEqual(header);
    const row = (address: string): string[] | undefined => provenance.find((line) => line[0] === "Model" && line[1] === address);
    const columns = (line: string[] | undefined, ...names: string[]): (string | undefined)[] => names.map((name) => line?.[header.indexOf(name)]);
    const dated = await service("/Prices", { Symbols: chosen.join(","), Dates: DATE });
    chosen.forEach((symbol, index) => {
      const record = prices(dated, symbol)[0];
      const instrument = sandbox.data.instruments.find((candidate) => candidate.record.symbol === symbol)?.record;
      // the day of the assessment shown; carried when that day is before the date asked
      const assessed = new Date(String(record?.assessmentDate)).toISOString().slice(0, 10);
      const line = row(`B${index + 2}`);
      expect(columns(line, "Formula", "Symbol", "Date asked", "Assessment date", "Assessed at", "Revision", "Carried", "Field", "Currency", "Unit", "Conversion", "Result range")).toEqual([
        index === 0 ? `=_xldudf_PRICES_MID(A2,"${DATE}")` : `=_xldudf_PRICES_MID(A3,"${DATE}")`,
        symbol,
        DATE,
        assessed,
        String(record?.assessmentDate),
        String(record?.revision),
        assessed < DATE ? "TRUE" : "FALSE",
        "mid",
        instrument?.currencyId,
        instrument?.unitOfMeasureId,
        "none",
        `B${index + 2}`,
      ]);
      expect(columns(line, "Retrieved at")[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
      // the runner's own sandbox (another port than this file's), its /Prices endpoint
      expect(columns(line, "Service URL")[0]).toMatch(new RegExp(`^https://localhost:\\d+${new URL(sandbox.apiUrl).pathname}/Prices$`));
    });
    const firstInstrument = sandbox.data.instruments.find((candidate) => candidate.record.symbol === chosen[0])?.record;
    expect(columns(row("F1"), "Symbol", "Date asked", "Currency", "Unit", "Result range")).toEqual([chosen[0], `${FROM}..${TO}`, firstInstrument?.currencyId, firstInstrument?.unitOfMeasureId, `F1:G${expected.history.length}`]);
    expect(provenance.flat().join(" ")).not.toMatch(/bearer|eyJ/i);

    const written = new ExcelJS.Workbook();
    await written.xlsx.readFile(out);
    const sheet = written.getWorksheet("Model");
    expect(sheet?.getCell("B2").formula).toBeUndefined();
    expect(sheet?.getCell("B2").value).toBe(expected.mids[0]);
    expect(sheet?.getCell("C2").formula).toBe("B2/B3-1");
    expect(sheet?.getCell("F2").value).toBe(expected.history[1]?.date);
    expect(serialOf(DATE)).toBeGreaterThan(0);
  });

  it("recalculates a whole column beside fresh prices; keeps a formula no price reaches, and one it cannot evaluate, as saved, and leaves the formulas that read the latter to Excel too", async () => {
    const [symbol] = chosen;
    const input = join(dir, "model-kept.xlsx");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Model");
    sheet.getCell("A1").value = symbol ?? "";
    sheet.getCell("B1").value = { formula: `_xldudf_PRICES_MID(A1,"${DATE}")` };
    [1, 2, 3].forEach((value, index) => (sheet.getCell(`D${index + 1}`).value = value));
    sheet.getCell("D4").value = { formula: "B1", result: 0 };
    sheet.addTable({ name: "Prices", ref: "H1", headerRow: true, columns: [{ name: "Symbol" }, { name: "Mid" }], rows: [["a", 10], ["b", 20]] });
    // saved before the price came in: stale, recalculated
    sheet.getCell("E1").value = { formula: "SUM(D:D)", result: 6 };
    // no price reaches it: outside the price cone, it keeps its cached value, though the table gives 30
    sheet.getCell("E2").value = { formula: "SUM(Prices[Mid])", result: 7 };
    sheet.getCell("F3").value = { formula: "E1+E2", result: 13 };
    // Excel counts the column's blank cells that are not "x" too: the engine cannot, so it keeps the saved value
    sheet.getCell("E3").value = { formula: 'COUNTIF(D:D,"<>x")', result: 1048576 };
    // evaluated from E3's saved value it could be stale beside fresh prices, so it keeps its own saved value
    sheet.getCell("F1").value = { formula: "E1*2+E3", result: 19 };
    sheet.getCell("F2").value = { formula: "F1+1", result: 20 };
    sheet.getCell("G1").value = { formula: "B1*2" };
    await workbook.xlsx.writeFile(input);

    const out = join(dir, "refreshed-kept.xlsx");
    const result = await run([input, "--out", out, "--today", TODAY]);
    expect(result.code).toBe(0);
    expect(result.errors).toMatch(/3 formulas left for Excel, their saved values kept[^]*Model!E3 =COUNTIF\(D:D,"<>x"\): D:D: a whole row or column is evaluated only inside SUM, [^]*Model!F1 =E1\*2\+E3: depends on Model!E3 \(left for Excel\)[^]*Model!F2 =F1\+1: depends on Model!F1/);
    const mid = expected.mids[0] ?? 0;
    const cells = (JSON.parse(result.printed) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model ?? {};
    expect([cells.B1, cells.G1, cells.E1, cells.E2, cells.F3]).toEqual([mid, mid * 2, 6 + mid, 7, 6 + mid + 7]);

    const written = new ExcelJS.Workbook();
    await written.xlsx.readFile(out);
    const model = written.getWorksheet("Model");
    expect(model?.getCell("E1").value).toEqual({ formula: "SUM(D:D)", result: 6 + mid });
    expect(model?.getCell("E2").value).toEqual({ formula: "SUM(Prices[Mid])", result: 7 });
    expect(model?.getCell("F3").value).toEqual({ formula: "E1+E2", result: 6 + mid + 7 });
    expect(model?.getCell("E3").value).toEqual({ formula: 'COUNTIF(D:D,"<>x")', result: 1048576 });
    expect(model?.getCell("F1").value).toEqual({ formula: "E1*2+E3", result: 19 });
    expect(model?.getCell("F2").value).toEqual({ formula: "F1+1", result: 20 });
    expect(model?.getCell("G1").value).toEqual({ formula: "B1*2", result: mid * 2 });
  });

  it("never writes a spill over an entry no formula reads: the formula shows Excel's #SPILL! and the entry stays", async () => {
    const input = join(dir, "model-spill.xlsx");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Model");
    // a price in it puts it in the price cone: a formula no price reaches is not evaluated at all
    sheet.getCell("A1").value = chosen[0] ?? "";
    sheet.getCell("B2").value = { formula: `_xlfn.SEQUENCE(3)+_xldudf_PRICES_MID(A1,"${DATE}")`, result: 1 };
    sheet.getCell("B4").value = "a note the user typed";
    await workbook.xlsx.writeFile(input);
    asDynamicArrays(input, { "xl/worksheets/sheet1.xml": ["B2"] });
    const out = join(dir, "refreshed-spill.xlsx");
    const result = await run([input, "--out", out, "--today", TODAY]);
    expect(result.code).toBe(0);
    const cells = (JSON.parse(result.printed) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model ?? {};
    expect(String(cells.B2)).toMatch(/^#SPILL!/);
    const written = new ExcelJS.Workbook();
    await written.xlsx.readFile(out);
    expect(written.getWorksheet("Model")?.getCell("B4").value).toBe("a note the user typed");
    expect(written.getWorksheet("Model")?.getCell("B3").value).toBeNull();
  });

  it("evaluates a sheet that reads another sheet after it, with its final values", async () => {
    const input = join(dir, "model-sheets.xlsx");
    const workbook = new ExcelJS.Workbook();
    const model = workbook.addWorksheet("Model");
    const inputs = workbook.addWorksheet("Price inputs");
    model.getCell("A1").value = { formula: `_xldudf_PRICES_MID('Price inputs'!A1,'Price inputs'!B1)` };
    model.getCell("A2").value = { formula: "A1/'Price inputs'!C1-1" };
    inputs.getCell("A1").value = chosen[0] ?? "";
    inputs.getCell("B1").value = DATE;
    inputs.getCell("C1").value = { formula: `_xldudf_PRICES_MID(A1,"${DATE}")` };
    await workbook.xlsx.writeFile(input);

    const result = await run([input, "--out", join(dir, "refreshed-sheets.xlsx"), "--today", TODAY]);
    expect(result.code).toBe(0);
    const cells = (JSON.parse(result.printed) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model ?? {};
    expect([cells.A1, cells.A2]).toEqual([expected.mids[0], 0]);
  });

  it("evaluates a workbook saved in the 1904 date system in that system: its date cells, TODAY() and date text", async () => {
    const [symbol] = chosen;
    const input = join(dir, "model-1904.xlsx");
    const workbook = new ExcelJS.Workbook();
    workbook.properties.date1904 = true;
    const sheet = workbook.addWorksheet("Model");
    sheet.getCell("A1").value = symbol ?? "";
    // a date cell as Excel stores it in such a book: the 1904 serial of DATE, formatted as a date
    sheet.getCell("B1").value = new Date(`${DATE}T00:00:00Z`);
    sheet.getCell("B1").numFmt = "yyyy-mm-dd";
    sheet.getCell("C1").value = { formula: "_xldudf_PRICES_MID(A1,B1)" };
    sheet.getCell("D1").value = { formula: `PRICES.MID(A1,"${DATE}"+0)` };
    sheet.getCell("E1").value = { formula: "TODAY()" };
    // E1 is a price's argument, so in the price cone
    sheet.getCell("G1").value = { formula: "_xldudf_PRICES_MID(A1,E1)" };
    sheet.getCell("F1").value = { formula: `PRICES.HISTORY(A1,"${FROM}","${TO}","date",0)` };
    await workbook.xlsx.writeFile(input);

    const out = join(dir, "refreshed-1904.xlsx");
    const result = await run([input, "--out", out, "--today", TODAY]);
    expect(result.code).toBe(0);
    const cells = (JSON.parse(result.printed) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model ?? {};
    expect([cells.C1, cells.D1]).toEqual([expected.mids[0], expected.mids[0]]);
    expect(cells.E1).toBe(isoDateToSerial(TODAY, "1904"));
    // a date the functions return is a serial of the book's system too
    expect(cells.F1).toBe(isoDateToSerial(expected.history[0]?.date ?? "", "1904"));

    const written = new ExcelJS.Workbook();
    await written.xlsx.readFile(out);
    expect(written.properties.date1904).toBe(true);
    expect((written.getWorksheet("Model")?.getCell("C1").value as { result?: unknown }).result).toBe(expected.mids[0]);

    const refused = await run([input, "--out", join(dir, "never-1904.xlsx"), "--date-system", "1900"]);
    expect(refused.code).toBe(2);
    expect(refused.errors).toMatch(/--date-system 1900 contradicts .* 1904 date system/);
  });

  // every other kind of bad input: test/e2e/xlsx-bad-input.test.ts, through the real command line
  it("refuses a truncated workbook with exit code 2 and one line", async () => {
    const bytes = readFileSync(model);
    const input = join(dir, "truncated.xlsx");
    writeFileSync(input, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const result = await run([input, "--out", join(dir, "never.xlsx")]);
    expect(result.code).toBe(2);
    expect(result.errors.trim()).toMatch(/^workbook: .*truncated\.xlsx is a damaged zip/);
    expect(result.errors.trim().split("\n")).toHaveLength(1);
  });

  it("refuses --out naming the input, and an .xlsx without --out", async () => {
    expect((await run([model, "--out", model])).errors).toMatch(/--out must name another file/);
    expect((await run([model])).errors).toMatch(/a workbook needs --out REFRESHED\.xlsx/);
    // a symlink to the input is the input: writing through it would replace the model
    const link = join(dir, "link-to-model.xlsx");
    symlinkSync(model, link);
    const before = digest(model);
    const refused = await run([model, "--out", link]);
    expect(refused.code).toBe(2);
    expect(refused.errors).toMatch(/--out must name another file/);
    expect(digest(model)).toBe(before);
  });
});
