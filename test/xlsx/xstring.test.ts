/**
 * Strings as ECMA-376's ST_Xstring holds them: a character XML 1.0 forbids is written `_xHHHH_` (CHAR(7) as `_x0007_`)
 * and a literal `_x0041_` as `_x005F_x0041_`, in a formula's text result, a frozen inline string and the provenance
 * sheet; the reader decodes them in text results, inline strings and shared strings, so a value round-trips.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { type SheetCell, rewriteSheet, scanSheet } from "../../src/xlsx/sheet-part";
import { readWorkbookFile } from "../../src/xlsx/workbook-file";
import { checkWellFormed, decodeXstring, encodeXstring } from "../../src/xlsx/xml";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const BELL = String.fromCharCode(7);

describe("encodeXstring and decodeXstring", () => {
  it.each([
    [`${BELL}x`, "_x0007_x"],
    ["_x0041_", "_x005F_x0041_"],
    ["a\r\nb", "a_x000D_\nb"],
    [`${String.fromCharCode(0)}${String.fromCharCode(0x1f)}${String.fromCharCode(0xfffe)}`, "_x0000__x001F__xFFFE_"],
    // a lone surrogate is no XML character; a pair is one
    [`${String.fromCharCode(0xd83d)}!`, "_xD83D_!"],
    ["\u{1F600} tab\tand line\n", "\u{1F600} tab\tand line\n"],
    // an underscore escapes only where it would start an escape, as Excel writes it
    ["_x004 _x00411 _x0041 plain_", "_x004 _x00411 _x0041 plain_"],
  ])("writes %j as %j and reads it back", (text, written) => {
    expect(encodeXstring(text)).toBe(written);
    expect(decodeXstring(written)).toBe(text);
  });

  it("reads Excel's escapes in either case, and an escaped underscore once", () => {
    expect(decodeXstring("_x000a__x000D_")).toBe("\n\r");
    // the underscore an escape gives is not the start of another
    expect(decodeXstring("_x005F_x0041_")).toBe("_x0041_");
  });
});

describe("a text result written into a sheet part", () => {
  const sheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="str"><f>CHAR(7)&amp;"x"</f><v>old</v></c><c r="B1"><f>"_x0041_"&amp;B2</f><v>0</v></c></row><row r="2"><c r="B2"><v>5</v></c></row></sheetData></worksheet>`;

  function cellsOf(xml: string): Map<string, SheetCell> {
    const cells = new Map<string, SheetCell>();
    scanSheet(xml, "sheet1.xml", { cell: (cell) => void cells.set(cell.address, cell) });
    return cells;
  }

  it("is well-formed, escaped as Excel writes it, and reads back as the value", () => {
    const out = rewriteSheet(
      sheet,
      "sheet1.xml",
      new Map([
        ["A1", { kind: "result", value: `${BELL}x` }],
        ["B1", { kind: "result", value: "_x0041_5" }],
      ]),
    );
    expect(() => checkWellFormed(out, "sheet1.xml")).not.toThrow();
    expect(out).toContain('<c r="A1" t="str"><f>CHAR(7)&amp;"x"</f><v>_x0007_x</v></c>');
    expect(out).toContain('<c r="B1" t="str"><f>"_x0041_"&amp;B2</f><v>_x005F_x0041_5</v></c>');
    const cells = cellsOf(out);
    expect(cells.get("A1")?.value?.text).toBe(`${BELL}x`);
    expect(cells.get("B1")?.value?.text).toBe("_x0041_5");
    // the cell after it is still read (LibreOffice dropped every cell after a raw control character)
    expect(cells.get("B2")?.value?.text).toBe("5");
  });

  it("escapes a frozen text's inline string too", () => {
    const out = rewriteSheet(sheet, "sheet1.xml", new Map([["A1", { kind: "freeze", value: `a${BELL}_x0041_` }]]));
    expect(out).toContain('<c r="A1" t="inlineStr"><is><t>a_x0007__x005F_x0041_</t></is></c>');
    expect(cellsOf(out).get("A1")?.inline?.text).toBe(`a${BELL}_x0041_`);
  });

  it("leaves a number's text alone: only a string is an ST_Xstring", () => {
    const cells = cellsOf(`<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="e"><v>#N/A</v></c><c r="B1" t="s"><v>0</v></c></row></sheetData></worksheet>`);
    expect(cells.get("B1")?.value?.text).toBe("0");
  });
});

describe("the reader", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "prices-xstring-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("decodes _xHHHH_ in shared strings, inline strings and text results, as Excel reads them", () => {
    const rels = (entries: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;
    const path = join(dir, "escaped.xlsx");
    const files = {
      "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/>`),
      "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>`),
      "xl/sharedStrings.xml": `<sst xmlns="${MAIN}"><si><t>line_x000D_</t></si><si><r><t>_x005F_x0041_</t></r><r><t>!</t></r></si></sst>`,
      "xl/worksheets/sheet1.xml": `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>a_x0007_b</t></is></c><c r="D1" t="str"><f>A1&amp;C1</f><v>x_x0009_y</v></c><c r="E1"><f>_xldudf_PRICES_MID(A1:D1)</f><v>1</v></c></row></sheetData></worksheet>`,
    };
    writeFileSync(path, zipSync(Object.fromEntries(Object.entries(files).map(([part, text]) => [part, strToU8(text)]))));
    const book = readWorkbookFile(path);
    // the price reads A1:D1, so the reader hands the engine those cells (the price cone)
    expect(book.sheets[0]?.book).toMatchObject({ cells: { A1: "line\r", B1: "_x0041_!", C1: `a${BELL}b` } });
    expect(book.formulas.get("Model")?.get("D1")?.saved).toBe("x\ty");
  });
});
