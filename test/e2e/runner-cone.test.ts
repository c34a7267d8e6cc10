/**
 * Only the price cone changes, and every value written is proven against the one Excel saved: books the test writes
 * part by part (so it chooses each cached value) go through the runner. A book without PRICES comes out byte for byte;
 * in a book where a price feeds a chain only the chain changes, other formulas keep their cached values even where
 * the engine would compute something else; a cached value the engine cannot reproduce (as a tool with a wrong engine
 * would leave it) is reported and kept with what reads it; a copy the runner refreshed proves nothing a second time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import type { RunningSandbox } from "../../src/sandbox/server";
import { runMain } from "./run-main";
import { pricedMetal, TODAY } from "./support";

jest.setTimeout(300_000);

const DATE = "2025-05-14";
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const SHEET = "xl/worksheets/sheet1.xml";
let sandbox: RunningSandbox;
let dir: string;
let symbol: string;
let mid: number;

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-e2e-cone-"));
  ({ symbol, mid } = await pricedMetal(sandbox, DATE));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A one-sheet workbook as Excel saves it: `cells` are `<c>` elements by row, cached values chosen by the test. */
function workbook(rows: readonly (readonly string[])[], calcPr = '<calcPr calcId="191029"/>'): Uint8Array {
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
  return zipSync({
    "[Content_Types].xml": strToU8(
      `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(`${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    "xl/workbook.xml": strToU8(`${head}<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets>${calcPr}</workbook>`),
    "xl/_rels/workbook.xml.rels": strToU8(`${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    [SHEET]: strToU8(`${head}<worksheet xmlns="${MAIN}"><sheetData>${rows.map((cells, index) => `<row r="${index + 1}">${cells.join("")}</row>`).join("")}</sheetData></worksheet>`),
  });
}

const text = (address: string, value: string): string => `<c r="${address}" t="inlineStr"><is><t>${value}</t></is></c>`;
const number = (address: string, value: number): string => `<c r="${address}"><v>${value}</v></c>`;
const formula = (address: string, written: string, cached?: number | string): string =>
  `<c r="${address}"${typeof cached === "string" ? ' t="e"' : ""}><f>${written}</f>${cached === undefined ? "" : `<v>${cached}</v>`}</c>`;
const price = (address: string): string => formula(address, `_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;)`, 1);

function entries(path: string): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(readFileSync(path))));
}

function cellXml(path: string, address: string): string {
  return new RegExp(`<c r="${address}"(?: [^>]*?)?(?:/>|>[\\s\\S]*?</c>)`).exec(strFromU8(entries(path).get(SHEET) ?? new Uint8Array()))?.[0] ?? "";
}

interface Report {
  readonly cone: Record<string, number>;
  readonly unproven: readonly { readonly cell: string; readonly why: string }[];
  readonly leftForExcel: readonly { readonly cell: string; readonly why: string }[];
}

async function refresh(input: string, output: string): Promise<{ code: number; errors: string; printed: { cone: Record<string, number> }; report: Report }> {
  const reportPath = `${output}.report.json`;
  const run = await runMain([input, "--out", output, "--report", reportPath, "--today", TODAY]);
  expect([run.code, run.code === 0 ? "" : run.errors]).toEqual([0, ""]);
  return { code: run.code, errors: run.errors, printed: JSON.parse(run.printed) as { cone: Record<string, number> }, report: JSON.parse(readFileSync(reportPath, "utf8")) as Report };
}

describe("a book without PRICES", () => {
  it("comes out with every zip entry byte for byte, calcPr included, though the engine would compute other values", async () => {
    const input = join(dir, "no-prices.xlsx");
    // B1's cached 999 is not what =A1*2 gives: nothing is evaluated, so nothing is rewritten
    writeFileSync(input, workbook([[number("A1", 2), formula("B1", "A1*2", 999), formula("C1", "TODAY()", 45000)]]));
    const { printed } = await refresh(input, join(dir, "no-prices-out.xlsx"));
    const before = entries(input);
    const after = entries(join(dir, "no-prices-out.xlsx"));
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [part, bytes] of before) expect([part, Buffer.from(after.get(part) ?? []).equals(Buffer.from(bytes))]).toEqual([part, true]);
    expect(printed.cone).toMatchObject({ formulas: 0, of: 2, evaluated: 0 });
  });
});

describe("a book where a price feeds a chain", () => {
  let input: string;
  let output: string;
  let first: Awaited<ReturnType<typeof refresh>>;

  beforeAll(async () => {
    input = join(dir, "chain.xlsx");
    output = join(dir, "chain-out.xlsx");
    writeFileSync(
      input,
      workbook([
        [
          text("A1", symbol),
          price("B1"),
          // the chain, with the values Excel saved over B1's old price 1
          formula("C1", "B1*2", 2),
          formula("D1", "C1+1", 3),
          // outside the cone: a cached value the engine would not give (A3*3 is 6), kept as saved
          formula("E1", "A3*3", 999),
          formula("F1", "E1+1", 1000),
          // a price inside a larger formula: its old price was never saved on its own
          formula("G1", `_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;)*2`, 2),
          // a cached value no Excel gave (B1*10 over B1's saved 1 is 10), as a tool with a wrong engine would leave it
          formula("H1", "B1*10", 11),
          formula("I1", "H1+1", 12),
          // an error Excel saved that the engine does not reproduce: #VALUE! where B1+5 gives 6
          formula("J1", "B1+5", "#VALUE!"),
        ],
        [],
        [number("A3", 2)],
      ]),
    );
    first = await refresh(input, output);
  });

  it("writes the chain's new values and keeps every other formula's cell byte for byte", () => {
    expect(cellXml(output, "B1")).toBe(`<c r="B1"><f>_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;)</f><v>${mid}</v></c>`);
    expect(cellXml(output, "C1")).toBe(`<c r="C1"><f>B1*2</f><v>${mid * 2}</v></c>`);
    expect(cellXml(output, "D1")).toBe(`<c r="D1"><f>C1+1</f><v>${mid * 2 + 1}</v></c>`);
    expect(cellXml(output, "G1")).toBe(`<c r="G1"><f>_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;)*2</f><v>${mid * 2}</v></c>`);
    for (const address of ["A1", "E1", "F1", "A3"]) expect([address, cellXml(output, address)]).toEqual([address, cellXml(input, address)]);
  });

  it("counts the cone on stdout and in --report: prices, proven, unproven and left", () => {
    expect(first.printed.cone).toEqual({ formulas: 7, of: 9, evaluated: 4, prices: 1, proven: 2, unproven: 1, left: 3 });
    expect(first.report.cone).toEqual(first.printed.cone);
    expect(first.report.unproven).toEqual([expect.objectContaining({ cell: "G1", why: expect.stringContaining("inside a larger formula") })]);
    expect(first.errors).toContain("price cone: 7 of 9 formulas; 4 evaluated (1 prices, 2 proven against Excel's saved values, 1 unproven), 3 left for Excel");
  });

  it("keeps a cached value the engine cannot reproduce, and what reads it, saying why", () => {
    expect(cellXml(output, "H1")).toBe(cellXml(input, "H1"));
    expect(cellXml(output, "I1")).toBe(cellXml(input, "I1"));
    expect(cellXml(output, "J1")).toBe(cellXml(input, "J1"));
    const why = Object.fromEntries(first.report.leftForExcel.map((entry) => [entry.cell, entry.why]));
    expect(why).toEqual({ H1: "engine gives 10 where Excel saved 11", I1: "depends on H1 (left for Excel)", J1: "engine gives 6 where Excel saved #VALUE!" });
    expect(first.errors).toContain("Model!H1 =B1*10: engine gives 10 where Excel saved 11");
  });

  it("proves nothing against its own output when refreshed again with no Excel in between", async () => {
    expect(strFromU8(entries(output).get("xl/workbook.xml") ?? new Uint8Array())).toContain('fullCalcOnLoad="1"');
    const again = await refresh(output, join(dir, "chain-again.xlsx"));
    expect(again.printed.cone).toMatchObject({ prices: 1, proven: 0 });
    const unproven = new Map(again.report.unproven.map((entry) => [entry.cell, entry.why]));
    expect(unproven.get("C1")).toMatch(/not Excel's: it asks for a full recalculation on load/);
    expect(unproven.get("D1")).toMatch(/not Excel's/);
    expect(cellXml(join(dir, "chain-again.xlsx"), "D1")).toBe(`<c r="D1"><f>C1+1</f><v>${mid * 2 + 1}</v></c>`);
  });
});
