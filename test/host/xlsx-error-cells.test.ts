/**
 * An error saved in a cell of an .xlsx (`<c t="e">`) reaches the engine as that error, not as its text; a call to a
 * function no Excel knows (an add-in's) keeps the value Excel saved instead of becoming #NAME?.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { readBook } from "../../src/host/book";
import { readWorkbookFile } from "../../src/xlsx/workbook-file";
import { fixtureHost } from "./harness";

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * A one-sheet workbook as Excel saves it: A1 a number, A2 the error #DIV/0!, A3 #N/A, and formulas reading them with
 * Excel's cached values; a price reads those formulas, so they are in the price cone and reach the engine as formulas.
 */
function errorBook(extraRows = ""): Uint8Array {
  const sheet =
    `${HEAD}<worksheet xmlns="${MAIN}"><sheetData>` +
    '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>IFERROR(A3,0)</f><v>0</v></c><c r="C1"><f>_xldudf_PRICES_MID(B1:B3)</f><v>0</v></c></row>' +
    '<row r="2"><c r="A2" t="e"><v>#DIV/0!</v></c><c r="B2" t="b"><f>ISNA(A3)</f><v>1</v></c></row>' +
    '<row r="3"><c r="A3" t="e"><v>#N/A</v></c><c r="B3" t="e"><f>A2+1</f><v>#DIV/0!</v></c></row>' +
    extraRows +
    "</sheetData></worksheet>";
  return zipSync({
    "[Content_Types].xml": strToU8(
      `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(`${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    "xl/workbook.xml": strToU8(`${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    "xl/_rels/workbook.xml.rels": strToU8(`${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    "xl/worksheets/sheet1.xml": strToU8(sheet),
  });
}

describe("error cells in an .xlsx", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "xlsx-errors-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads <c t=\"e\"> as an error literal, so IFERROR, ISNA and arithmetic see the error", async () => {
    const path = join(dir, "errors.xlsx");
    writeFileSync(path, errorBook());
    const loaded = readWorkbookFile(path);
    const book = loaded.sheets[0]?.book as { cells: Record<string, unknown> };
    expect([book.cells.A2, book.cells.A3]).toEqual([{ error: "#DIV/0!" }, { error: "#N/A" }]);
    expect(loaded.formulas.get("Sheet1")?.get("B3")?.saved).toEqual({ error: "#DIV/0!" });
    expect(readBook(book).literals.find((cell) => cell.row === 2)?.value).toEqual({ kind: "error", code: "#N/A" });
    const cells = await fixtureHost().evaluate(book.cells);
    expect([cells.B1, cells.B2, cells.B3]).toEqual([0, true, "#DIV/0!"]);
  });

  it("keeps a file's call to a function Excel lacks (an add-in's, such as Bloomberg's BDP) with the value Excel saved", async () => {
    const path = join(dir, "addin.xlsx");
    writeFileSync(path, errorBook('<row r="4"><c r="A4"><f>BDP("IBM US Equity","PX_LAST")</f><v>187.5</v></c><c r="B4"><f>A4*2</f><v>375</v></c></row>'));
    const loaded = readWorkbookFile(path);
    expect(loaded.kept.map((entry) => [entry.cell, entry.why])).toEqual([
      ["A4", "BDP is no Excel function: an add-in's or a macro's, which only Excel with it computes"],
      ["B4", "depends on Sheet1!A4 (left for Excel)"],
    ]);
    // neither reaches the engine as a formula: the copy keeps both cells as Excel saved them
    const book = loaded.sheets[0]?.book as { cells: Record<string, unknown> };
    expect([book.cells.A4, book.cells.B4].filter((content) => String(content).startsWith("="))).toEqual([]);
    expect(loaded.formulas.get("Sheet1")?.has("A4")).toBe(false);
  });
});
