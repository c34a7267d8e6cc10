/**
 * What the refreshed copy writes, end to end through the runner (its own sandbox, Chromium) on books written here in
 * the forms Excel 365 saves: a text result holding a control character or a literal `_x0041_` is written as Excel
 * writes it (ST_Xstring) in a part every XML parser reads, LibreOffice included, and reads back as the same value; a
 * `#SPILL!` is written as `#SPILL!`; `--freeze` freezes a LET that calls PRICES, lists each PRICES formula it keeps
 * with why (stderr and --report), keeps a frozen error's message in the provenance sheet, and refuses a workbook whose
 * structure is protected.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { validateXML } from "xmllint-wasm";
import { readWorkbookFile } from "../../src/xlsx/workbook-file";
import { libreOfficeSheets, shown } from "../support/libreoffice";
import { type MainRun, runMain } from "./run-main";
import { TODAY } from "./support";

jest.setTimeout(240_000);

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const DATE = "2025-05-14";
const SYMBOL = "MB-AL-0004";
const UNKNOWN = "NO-SUCH-0001";
const BELL = String.fromCharCode(7);

const rels = (entries: string): string => `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;
const text = (address: string, value: string): string => `<c r="${address}" t="inlineStr"><is><t>${value}</t></is></c>`;

/** A one-sheet book (Model) as Excel 365 saves it: app.xml naming Excel (so LibreOffice keeps cached values) and the dynamic-array metadata `cm="1"` points at. */
function book(rows: string, options: { structureLocked?: boolean } = {}): Uint8Array {
  const parts: Record<string, string> = {
    "[Content_Types].xml": `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`,
    "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="${R}/extended-properties" Target="docProps/app.xml"/>`),
    "docProps/app.xml": `${HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Excel</Application><AppVersion>16.0300</AppVersion></Properties>`,
    "xl/workbook.xml": `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${R}">${options.structureLocked ? '<workbookProtection lockStructure="1"/>' : ""}<sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`,
    "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${R}/sheetMetadata" Target="metadata.xml"/>`),
    "xl/metadata.xml": `${HEAD}<metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`,
    "xl/worksheets/sheet1.xml": `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${R}"><sheetData>${rows}</sheetData></worksheet>`,
  };
  return zipSync(Object.fromEntries(Object.entries(parts).map(([name, xml]) => [name, strToU8(xml)])));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "prices-written-parts-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: readonly string[]): Promise<MainRun> => runMain([...args, "--today", TODAY]);

/** Every XML part of the package, parsed by libxml2 (xmllint), a parser apart from the runner's own. */
async function malformedParts(path: string): Promise<string[]> {
  const entries = unzipSync(new Uint8Array(readFileSync(path)));
  const bad: string[] = [];
  for (const [name, bytes] of Object.entries(entries)) {
    if (!/\.(xml|rels)$/.test(name)) continue;
    const result = await validateXML({ xml: [{ fileName: name.replace(/[^\w.]/g, "_"), contents: bytes }], normalization: "format" });
    if (!result.valid) bad.push(`${name}: ${result.errors.map((error) => error.message).join("; ")}`);
  }
  return bad;
}

const part = (path: string, name: string): string => strFromU8(unzipSync(new Uint8Array(readFileSync(path)))[name] ?? new Uint8Array());

describe("the refreshed copy's text and errors", () => {
  let input: string;
  let out: string;
  let result: MainRun;
  beforeAll(async () => {
    input = join(dir, "text.xlsx");
    out = join(dir, "text-refreshed.xlsx");
    writeFileSync(
      input,
      book(
        // every formula reads the price in E1, so each is in the price cone, and each saved value is what Excel computed
        // from the saved price 42 (so each is proven before its new value is written)
        `<row r="1">${text("A1", SYMBOL)}<c r="B1" t="str"><f>CHAR(7)&amp;"x"&amp;E1</f><v>_x0007_x42</v></c><c r="C1"><v>42</v></c><c r="E1"><f>_xldudf_PRICES_MID(A1,"${DATE}")</f><v>42</v></c></row>` +
          // the formula builds a literal _x0041_ its own text does not hold; C2 holds one already, escaped as Excel writes it
          `<row r="2"><c r="B2" t="str"><f>"_x"&amp;"0041_"&amp;E1</f><v>_x005F_x0041_42</v></c>${text("C2", "_x005F_x0041_ kept")}<c r="D2" t="str"><f>C2&amp;E1</f><v>_x005F_x0041_ kept42</v></c></row>` +
          // one value while the price was 42; two once it is over 100, which B4's note blocks
          `<row r="3"><c r="B3" cm="1"><f t="array" ref="B3">IF(E1&gt;100,{1;2},1)</f><v>1</v></c></row>` +
          `<row r="4">${text("B4", "note")}</row>` +
          '<row r="5"><c r="C5"><v>7</v></c></row>',
      ),
    );
    result = await run([input, "--out", out]);
  });

  /** The fresh price the runner wrote in E1, as the formulas' text shows it. */
  const mid = (): string => {
    const price = (JSON.parse(result.printed) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model?.E1;
    if (typeof price !== "number" || price <= 100) throw new Error(`E1 should hold a price over 100, got ${String(price)}`);
    return String(price);
  };

  it("refreshes the book, proving every formula against its saved value first", () => {
    expect([result.code, result.errors]).toEqual([0, expect.not.stringMatching(/not well-formed/)]);
    expect(result.errors).toMatch(/4 proven against Excel's saved values/);
  });

  it("writes a control character and a literal _x0041_ as Excel writes them, in parts libxml2 reads", async () => {
    const sheet = part(out, "xl/worksheets/sheet1.xml");
    const price = mid();
    expect(sheet).toContain(`<c r="B1" t="str"><f>CHAR(7)&amp;"x"&amp;E1</f><v>_x0007_x${price}</v></c>`);
    expect(sheet).toContain(`<v>_x005F_x0041_${price}</v>`);
    expect(sheet).toContain(`<v>_x005F_x0041_ kept${price}</v>`);
    expect(sheet).not.toContain(BELL);
    expect(await malformedParts(out)).toEqual([]);
  });

  it("reads the values back as they were computed", () => {
    const saved = readWorkbookFile(out).formulas.get("Model");
    expect([saved?.get("B1")?.saved, saved?.get("B2")?.saved, saved?.get("D2")?.saved]).toEqual([`${BELL}x${mid()}`, `_x0041_${mid()}`, `_x0041_ kept${mid()}`]);
  });

  it("writes #SPILL! as #SPILL!, not #N/A", () => {
    expect(part(out, "xl/worksheets/sheet1.xml")).toContain('<c r="B3" t="e" cm="1"><f t="array" ref="B3">IF(E1&gt;100,{1;2},1)</f><v>#SPILL!</v></c>');
  });

  it("is read by LibreOffice to its last cell (a raw control character made it drop every cell after it)", () => {
    const rows = libreOfficeSheets(out).get("Model");
    expect([shown(rows, "C1"), shown(rows, "C2"), shown(rows, "B4"), shown(rows, "C5")]).toEqual(["42", "_x0041_ kept", "note", "7"]);
  });
});

describe("--freeze", () => {
  /** PRICES through LET (as Excel saves it), an error, a lifted spill with an error in it, and one left for Excel. */
  const rows =
    `<row r="1">${text("A1", SYMBOL)}<c r="B1"><f>_xlfn.LET(_xlpm.s,A1,_xldudf_PRICES_MID(_xlpm.s,"${DATE}"))</f><v>0</v></c>` +
    `<c r="C1" cm="1"><f t="array" ref="C1:C2">_xldudf_PRICES_MID(A1:A2,"${DATE}")</f><v>0</v></c><c r="D1"><f>_xldudf_PRICES_MID([1]Rates!$B$2,"${DATE}")</f><v>5</v></c><c r="E1"><f>B1*2</f><v>0</v></c></row>` +
    `<row r="2">${text("A2", UNKNOWN)}<c r="B2"><f>_xldudf_PRICES_MID(A2,"${DATE}")</f><v>0</v></c><c r="C2"><v>0</v></c></row>`;

  it("freezes a LET that calls PRICES, lists what it keeps with why, and keeps a frozen error's message", async () => {
    const input = join(dir, "freeze.xlsx");
    const out = join(dir, "frozen.xlsx");
    const report = join(dir, "frozen-report.json");
    writeFileSync(input, book(rows));
    const result = await run([input, "--out", out, "--freeze", "--report", report]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.printed) as { sheets: Record<string, Record<string, unknown>> };
    const price = printed.sheets.Model?.C1;
    expect(typeof price).toBe("number");

    const sheet = part(out, "xl/worksheets/sheet1.xml");
    // the LET is a value now, the price its binding asked; the formula reading it stays
    expect(sheet).toContain(`<c r="B1"><v>${String(price)}</v></c>`);
    expect(sheet).toContain("<f>B1*2</f>");
    // the lifted spill is frozen whole: its price, and its error as an error
    expect(sheet).toContain(`<c r="C1"><v>${String(price)}</v></c>`);
    expect(sheet).toMatch(/<c r="C2" t="e"><v>#N\/A<\/v><\/c>/);

    const kept = JSON.parse(readFileSync(report, "utf8")) as { notFrozen: { sheet: string; cell: string; why: string }[] };
    expect(kept.notFrozen.map((entry) => `${entry.sheet}!${entry.cell}`).sort()).toEqual(["Model!B2", "Model!D1"]);
    expect(kept.notFrozen.find((entry) => entry.cell === "B2")?.why).toBe(`its result is an error, #N/A: unknown or not permitted symbol '${UNKNOWN}': the formula is kept`);
    expect(kept.notFrozen.find((entry) => entry.cell === "D1")?.why).toMatch(/^left for Excel: /);
    expect(result.errors).toContain("workbook: 2 PRICES formulas not frozen (the formula kept):");
    expect(result.errors).toContain(`workbook:   Model!B2 =_xldudf_PRICES_MID(A2,"${DATE}"): its result is an error`);

    const provenance = libreOfficeSheets(out).get("Prices provenance") ?? [];
    const header = provenance[0] ?? [];
    const row = (address: string): string[] | undefined => provenance.find((line) => line[0] === "Model" && line[1] === address);
    const column = (line: string[] | undefined, name: string): string | undefined => line?.[header.indexOf(name)];
    expect(column(row("B1"), "Formula")).toBe(`=_xlfn.LET(_xlpm.s,A1,_xldudf_PRICES_MID(_xlpm.s,"${DATE}"))`);
    expect(column(row("C2"), "Error")).toBe(`#N/A: unknown or not permitted symbol '${UNKNOWN}'`);
    expect(column(row("C1"), "Error")).toBe("");
  });

  it("refuses a workbook whose structure is protected, naming the protection, and writes nothing", async () => {
    const input = join(dir, "locked.xlsx");
    writeFileSync(input, book(rows, { structureLocked: true }));
    const before = readFileSync(input);
    const folder = mkdtempSync(join(dir, "locked-out-"));
    const refused = await run([input, "--out", join(folder, "copy.xlsx"), "--freeze"]);
    expect(refused.code).toBe(2);
    expect(refused.printed).toBe("");
    expect(refused.errors.trim()).toBe(
      `workbook: ${input}: --freeze adds the sheet 'Prices provenance', but the workbook's structure is protected (Review > Protect Workbook, workbookProtection lockStructure): unprotect it in Excel, or refresh without --freeze`,
    );
    expect(readdirSync(folder)).toEqual([]);
    expect(readFileSync(input).equals(before)).toBe(true);
    // a refresh adds no sheet: the protection is no reason to refuse it
    const refreshed = await run([input, "--out", join(folder, "refreshed.xlsx")]);
    expect(refreshed.code).toBe(0);
    expect(existsSync(join(folder, "refreshed.xlsx"))).toBe(true);
  });
});
