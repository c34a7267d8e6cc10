/**
 * The lossless refresh: a model written in Excel 365's forms (pivot, chart, external link, threaded comments,
 * protection, names, hyperlinks, sparklines, tables, dynamic and legacy arrays; also as .xlsm, in the 1904 system and
 * with the Open XML SDK's `x:` prefix) goes through `--out` and `--freeze`. Every zip entry but the refreshed sheet,
 * and the workbook part's calcPr (plus, for freeze, the new provenance sheet's entries), comes out byte for byte; the
 * refreshed sheet differs only in the refreshed cells; LibreOffice shows the same values in both copies (but for a
 * PRICES spill, which LibreOffice recalculates, as it does every array formula, and cannot evaluate).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { WorkbookPackage } from "../../src/xlsx/package";
import { fromEpochDay } from "../../src/api/dates";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import type { RunningSandbox } from "../../src/sandbox/server";
import { type MainRun, runMain } from "./run-main";
import { libreOfficeSheets, shown } from "../support/libreoffice";
import { sandboxGet, sandboxToken } from "../support/service";
import { type BookOptions, excel365Book } from "./excel365-book";
import { prices, TODAY, type JsonObject } from "./support";

jest.setTimeout(300_000);

const DATE = "2025-05-14";
const FROM = "2025-05-01";
const TO = "2025-05-31";
const MODEL = "xl/worksheets/sheet1.xml";
let sandbox: RunningSandbox;
let dir: string;
let symbols: [string, string];
let mids: number[];
let history: { date: string; mid: number }[];

async function service(path: string, query: Record<string, string>, token: string): Promise<JsonObject> {
  const response = await sandboxGet(sandbox, path, query, token);
  expect(response.status).toBe(200);
  return JSON.parse(response.text) as JsonObject;
}

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-e2e-roundtrip-"));
  const chosen = sandbox.data.instruments
    .filter((instrument) => instrument.record.symbol.startsWith("MB-") && instrument.record.launchDate < "2024-01-01" && instrument.record.status === "Active")
    .filter((instrument) => fromEpochDay(instrument.series.days[0] ?? 0) < FROM)
    .map((instrument) => instrument.record.symbol)
    .slice(0, 2);
  symbols = [chosen[0] ?? "", chosen[1] ?? ""];
  const token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const dated = await service("/Prices", { Symbols: symbols.join(","), Dates: DATE }, token);
  mids = symbols.map((symbol) => Number(prices(dated, symbol)[0]?.mid));
  history = prices(await service("/Prices/History", { Symbols: symbols[0], FromDate: FROM, ToDate: TO }, token), symbols[0])
    .map((record) => ({ date: String(record.date), mid: Number(record.mid) }))
    .sort((a, b) => a.date.localeCompare(b.date));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: readonly string[]): Promise<MainRun> => runMain(args);

function entries(path: string): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(readFileSync(path))));
}

/** An unchanged part is copied as stored, not only as content: the same compressed bytes under the same method. */
function expectStoredAlike(input: string, output: string, part: string): void {
  const before = WorkbookPackage.read(input).stored.get(part);
  const after = WorkbookPackage.read(output).stored.get(part);
  expect([part, after?.compression, after?.crc, Buffer.from(after?.data ?? []).equals(Buffer.from(before?.data ?? [1]))]).toEqual([part, before?.compression, before?.crc, true]);
}

/** The part with each of `cells` reduced to an empty `<c r=".."/>`: what stays must be the same text in both files. */
function maskCells(xml: string, cells: readonly string[]): string {
  let masked = xml;
  for (const cell of cells) masked = masked.replace(new RegExp(`<((?:x:)?c) r="${cell}"(?: [^>]*?)?(?:/>|>[\\s\\S]*?</\\1>)`), `<c r="${cell}"/>`);
  return masked;
}

function cellXml(xml: string, cell: string): string {
  return new RegExp(`<((?:x:)?c) r="${cell}"(?: [^>]*?)?(?:/>|>[\\s\\S]*?</\\1>)`).exec(xml)?.[0] ?? "";
}

const cases: [string, Partial<BookOptions>, string][] = [
  ["an Excel 365 model", {}, ".xlsx"],
  ["a macro-enabled model with its vbaProject.bin", { macros: true }, ".xlsm"],
  ["a model in the 1904 date system", { date1904: true }, ".xlsx"],
  ["a model written with the x: prefix (Open XML SDK)", { prefix: "x:" }, ".xlsx"],
];

describe.each(cases)("%s", (_, options, extension) => {
  let input: string;
  /** The same book with its structure not locked: --freeze adds a sheet, which a locked structure forbids. */
  let unlocked: string;
  let refreshed: { code: number; printed: string; errors: string };
  let frozen: { code: number; printed: string; errors: string };
  let layout: ReturnType<typeof excel365Book>["layout"];
  const name = (stem: string): string => join(dir, `${stem}-${Object.keys(options).join("-") || "plain"}${extension}`);

  beforeAll(async () => {
    const book = excel365Book({ symbols, date: DATE, from: FROM, to: TO, history, ...options });
    layout = book.layout;
    input = name("model");
    writeFileSync(input, book.bytes);
    refreshed = await run([input, "--out", name("refreshed"), "--report", join(dir, `report-${Object.keys(options).join("-") || "plain"}.json`), "--today", TODAY]);
    unlocked = name("model-unlocked");
    writeFileSync(unlocked, excel365Book({ symbols, date: DATE, from: FROM, to: TO, history, ...options, structureLocked: false }).bytes);
    frozen = await run([unlocked, "--out", name("frozen"), "--freeze", "--today", TODAY]);
  });

  it("--out copies every entry but the refreshed sheet and calcPr byte for byte, and the sheet differs only in the refreshed cells", () => {
    expect(refreshed.code).toBe(0);
    const before = entries(input);
    const after = entries(name("refreshed"));
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [part, bytes] of before) {
      if (part === MODEL || part === "xl/workbook.xml") continue;
      expect([part, Buffer.from(after.get(part) ?? []).equals(Buffer.from(bytes))]).toEqual([part, true]);
      expectStoredAlike(input, name("refreshed"), part);
    }
    const workbook = strFromU8(after.get("xl/workbook.xml") ?? new Uint8Array());
    const prefix = options.prefix ?? "";
    expect(workbook).toBe(strFromU8(before.get("xl/workbook.xml") ?? new Uint8Array()).replace(`<${prefix}calcPr calcId="191029"/>`, `<${prefix}calcPr calcId="191029" fullCalcOnLoad="1"/>`));
    const sheetBefore = strFromU8(before.get(MODEL) ?? new Uint8Array());
    const sheetAfter = strFromU8(after.get(MODEL) ?? new Uint8Array());
    expect(sheetAfter).not.toBe(sheetBefore);
    expect(maskCells(sheetAfter, layout.refreshed)).toBe(maskCells(sheetBefore, layout.refreshed));
    // formulas keep their form: Excel's saved text, the shared formula, the dynamic array's cm and ref, the legacy array
    expect(cellXml(sheetAfter, "B2")).toMatch(new RegExp(`^<${prefix}c r="B2" s="3"><${prefix}f>_xldudf_PRICES_MID\\(A2,&quot;${DATE}&quot;\\)</${prefix}f><${prefix}v>${mids[0]}</${prefix}v></${prefix}c>$`));
    expect(cellXml(sheetAfter, "C3")).toBe(`<${prefix}c r="C3"><${prefix}f t="shared" si="0"/><${prefix}v>${(mids[1] ?? 0) * 2}</${prefix}v></${prefix}c>`);
    expect(cellXml(sheetAfter, "F1")).toContain(`<${prefix}c r="F1" cm="1" t="str"><${prefix}f t="array" ref="F1:G${history.length}">`);
    expect(cellXml(sheetAfter, "F1")).toContain(`<${prefix}v>${history[0]?.date}</${prefix}v>`);
    expect(cellXml(sheetAfter, `G${history.length}`)).toBe(`<${prefix}c r="G${history.length}"><${prefix}v>${history[history.length - 1]?.mid}</${prefix}v></${prefix}c>`);
    expect(cellXml(sheetAfter, "E4")).toMatch(new RegExp(`<${prefix}f t="array" ref="E4">SUM\\(IF\\(B2:B3&gt;1,B2:B3,0\\)\\)</${prefix}f>`));
    // the external link and what reads it keep their cached values
    expect(cellXml(sheetAfter, "E2")).toBe(cellXml(sheetBefore, "E2"));
    expect(cellXml(sheetAfter, "E3")).toBe(cellXml(sheetBefore, "E3"));
  });

  it("--out lists the formulas left for Excel on stderr and in --report, with cell, formula and why", () => {
    expect(refreshed.errors).toMatch(/formulas? left for Excel/);
    expect(refreshed.errors).toContain("Model!E2 =[1]Rates!$B$2");
    // what reads the external link is left for Excel too, keeping its saved value
    expect(refreshed.errors).toContain("Model!E3 =B2*(1+E2): depends on Model!E2 (left for Excel)");
    // no price reaches the table's calculated column: outside the price cone, it is neither evaluated nor left
    expect(refreshed.errors).not.toContain("Trades!D2");
    expect((JSON.parse(refreshed.printed) as { sheets: Record<string, Record<string, unknown>> }).sheets.Trades).toEqual({});
    const report = JSON.parse(readFileSync(join(dir, `report-${Object.keys(options).join("-") || "plain"}.json`), "utf8")) as { leftForExcel: { sheet: string; cell: string; formula: string; why: string }[] };
    expect(report.leftForExcel).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sheet: "Model", cell: "E2", formula: "[1]Rates!$B$2", why: expect.any(String) }),
      ]),
    );
    expect(report.leftForExcel.filter((entry) => entry.sheet === "Trades")).toEqual([]);
    expect(JSON.parse(refreshed.printed)).toMatchObject({ leftForExcel: report.leftForExcel.length });
  });

  it("--freeze changes only the frozen cells, adds the provenance sheet with every frozen formula, and keeps styles", () => {
    expect(frozen.code).toBe(0);
    const before = entries(unlocked);
    const after = entries(name("frozen"));
    const added = [...after.keys()].filter((part) => !before.has(part));
    expect(added).toEqual(["xl/worksheets/sheet4.xml"]);
    // the calculation chain names the frozen cells as formulas: it goes (Excel rebuilds it)
    expect(after.has("xl/calcChain.xml")).toBe(false);
    const changed = new Set([MODEL, "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "xl/calcChain.xml"]);
    for (const [part, bytes] of before) {
      if (changed.has(part)) continue;
      expect([part, Buffer.from(after.get(part) ?? []).equals(Buffer.from(bytes))]).toEqual([part, true]);
      expectStoredAlike(unlocked, name("frozen"), part);
    }
    const text = (map: Map<string, Uint8Array>, part: string): string => strFromU8(map.get(part) ?? new Uint8Array());
    expect(text(after, "[Content_Types].xml")).toBe(
      text(before, "[Content_Types].xml")
        .replace('<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/>', "")
        .replace("</Types>", '<Override PartName="/xl/worksheets/sheet4.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'),
    );
    expect(text(after, "xl/_rels/workbook.xml.rels")).toBe(
      text(before, "xl/_rels/workbook.xml.rels").replace('<Relationship Id="rId20" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/>', "").replace(
        "</Relationships>",
        `<Relationship Id="rId${options.macros ? 12 : 11}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet4.xml"/></Relationships>`,
      ),
    );
    const sheetBefore = text(before, MODEL);
    const sheetAfter = text(after, MODEL);
    expect(maskCells(sheetAfter, layout.refreshed)).toBe(maskCells(sheetBefore, layout.refreshed));
    const prefix = options.prefix ?? "";
    // frozen: no formula, the style kept (B2's number format, D2's date format)
    expect(cellXml(sheetAfter, "B2")).toBe(`<${prefix}c r="B2" s="3"><${prefix}v>${mids[0]}</${prefix}v></${prefix}c>`);
    expect(cellXml(sheetAfter, "D2")).toMatch(new RegExp(`^<${prefix}c r="D2" s="2"><${prefix}v>\\d+</${prefix}v></${prefix}c>$`));
    expect(cellXml(sheetAfter, "F1")).toBe(`<${prefix}c r="F1" t="inlineStr"><${prefix}is><${prefix}t>${history[0]?.date}</${prefix}t></${prefix}is></${prefix}c>`);
    // not frozen: formulas without PRICES, and the external link left for Excel
    expect(cellXml(sheetAfter, "C2")).toContain(`<${prefix}f t="shared" ref="C2:C3" si="0">B2*2</${prefix}f>`);
    expect(cellXml(sheetAfter, "E2")).toBe(cellXml(sheetBefore, "E2"));
    expect(JSON.parse(frozen.printed)).toMatchObject({ frozen: 4 });
  });

  it("LibreOffice opens both copies and shows the same values, the fresh prices and frozen dates as dates", () => {
    const outSheets = libreOfficeSheets(name("refreshed"));
    const frozenSheets = libreOfficeSheets(name("frozen"));
    const model = outSheets.get("Model");
    // LibreOffice recalculates every array formula on load, and knows no PRICES function: the refreshed copy's spill
    // (F:G) shows #NAME? there, so its cached values are checked in the XML above and LibreOffice's in the frozen copy.
    const withoutSpill = (rows: string[][] | undefined): string[][] => (rows ?? []).map((row) => row.filter((_, col) => col !== 5 && col !== 6));
    expect(withoutSpill(frozenSheets.get("Model"))).toEqual(withoutSpill(model));
    expect(frozenSheets.get("Trades")).toEqual(outSheets.get("Trades"));
    expect(Number(shown(model, "B2"))).toBe(mids[0]);
    expect(Number(shown(model, "B3"))).toBe(mids[1]);
    expect(Number(shown(model, "C3"))).toBe((mids[1] ?? 0) * 2);
    // a date cell: LibreOffice's CSV holds the serial of the book's system (not its display), the same in both copies
    expect([history[0]?.date, String(isoDateToSerial(history[0]?.date ?? "", options.date1904 ? "1904" : "1900"))]).toContain(shown(model, "D2"));
    expect(Number(shown(model, "E2"))).toBe(0.05);
    const frozenModel = frozenSheets.get("Model");
    history.forEach((record, index) => {
      expect([shown(frozenModel, `F${index + 1}`), Number(shown(frozenModel, `G${index + 1}`))]).toEqual([record.date, record.mid]);
    });
    const provenance = frozenSheets.get("Prices provenance") ?? [];
    const formulas = provenance.filter((row) => row[0] === "Model").map((row) => `${row[1] ?? ""} ${row[2] ?? ""}`);
    expect(formulas).toEqual(
      expect.arrayContaining([
        `B2 =_xldudf_PRICES_MID(A2,"${DATE}")`,
        `B3 =_xldudf_PRICES_MID(A3,"${DATE}")`,
        expect.stringMatching(/^D2 =INDEX\(_xldudf_PRICES_HISTORY/),
        expect.stringMatching(/^F1 =_xldudf_PRICES_HISTORY/),
      ]),
    );
  });
});
