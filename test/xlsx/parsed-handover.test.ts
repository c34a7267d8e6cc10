/**
 * The read's own trees handed to the engine (workbook-file.ts `parsed`, book.ts `readBook`): the cone's formulas are
 * parsed once, and a tree is taken only for the very text it was parsed from.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { parseExpression } from "../../src/formula/parse";
import { readBook } from "../../src/host/book";
import { readWorkbookFile } from "../../src/xlsx/workbook-file";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const rels = (entries: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;

describe("the read's trees handed to the engine", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "prices-xlsx-trees-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function model(): string {
    const path = join(dir, "model.xlsx");
    const files: Record<string, string> = {
      "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/>`),
      "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>`),
      "xl/worksheets/sheet1.xml":
        `<worksheet xmlns="${MAIN}"><sheetData>` +
        '<row r="1"><c r="A1" t="str"><v>MB-AL-0004</v></c><c r="B1"><f>_xldudf_PRICES_MID(A1)</f><v>2</v></c><c r="C1"><f>B1*2</f><v>4</v></c><c r="D1"><f>1+1</f><v>2</v></c></row>' +
        '<row r="2"><c r="B2"><f t="shared" ref="B2:B3" si="0">B1+1</f><v>3</v></c></row>' +
        '<row r="3"><c r="B3"><f t="shared" si="0"/><v>4</v></c></row>' +
        "</sheetData></worksheet>",
    };
    writeFileSync(path, zipSync(Object.fromEntries(Object.entries(files).map(([part, text]) => [part, strToU8(text)]))));
    return path;
  }

  it("holds the price cone's formulas, each with the text the engine's book holds and the tree of that text", () => {
    const loaded = readWorkbookFile(model());
    const parsed = loaded.parsed.get("Model");
    const cells = (loaded.sheets[0]?.book as { cells: Record<string, unknown> }).cells;
    // D1 reads no price: outside the cone, kept as its saved value and not handed over
    expect([...(parsed?.keys() ?? [])].sort()).toEqual(["B1", "B2", "B3", "C1"]);
    for (const [address, formula] of parsed ?? []) {
      expect(formula.text).toBe(cells[address]);
      expect(formula.expression).toEqual(parseExpression(formula.text));
    }
    // a shared formula's tree is its own cell's: B3 reads B2
    expect(parsed?.get("B3")?.text).toBe("=B2+1");
  });

  it("is what the engine's book gets: the handed tree for the same text, a parse of its own for any other", () => {
    const handed = parseExpression("=1+2");
    const book = readBook({ cells: { A1: "=1+2", A2: "=3+4" } }, undefined, new Map([["A1", { text: "=1+2", expression: handed }], ["A2", { text: "=5+6", expression: handed }]]));
    expect(book.formulas.find((formula) => formula.address === "A1")?.expression).toBe(handed);
    // A2's text is not the one that tree was parsed from: parsed afresh
    expect(book.formulas.find((formula) => formula.address === "A2")?.expression).toEqual(parseExpression("=3+4"));
  });
});
