/** The .xlsx side without a browser: a sheet part edited cell by cell, what the refresh decides per formula, and what formulas read. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { parseRangeAddress } from "../../src/formula/a1";
import { parseExpression } from "../../src/formula/parse";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import type { SheetResult } from "../../src/host/page-api";
import { CellsRead, referencesOf } from "../../src/xlsx/cells-read";
import { type CellEdit, type SheetCell, rewriteKnownCells, rewriteSheet, scanSheet } from "../../src/xlsx/sheet-part";
import { sheetEdits } from "../../src/xlsx/refreshed-copy";
import { type FormulaSource, readWorkbookFile } from "../../src/xlsx/workbook-file";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

function edits(entries: Record<string, CellEdit>): Map<string, CellEdit> {
  return new Map(Object.entries(entries));
}

describe("rewriteSheet", () => {
  const sheet =
    `<worksheet xmlns="${MAIN}"><sheetData>` +
    '<row r="1"><c r="A1" s="2"><f>PRICES.MID("X")</f><v>1</v></c><c r="C1" t="s"><v>0</v></c></row>' +
    '<row r="3" spans="1:3"/>' +
    '<row r="5"><c r="B5"><v>7</v></c></row>' +
    "</sheetData><legacyDrawing r:id=\"rId2\"/><tableParts count=\"1\"><tablePart r:id=\"rId1\"/></tableParts></worksheet>";

  it("rewrites only the cells asked, keeping every other byte in its place", () => {
    const out = rewriteSheet(sheet, "sheet1.xml", edits({ A1: { kind: "result", value: 42.5 } }));
    expect(out).toBe(sheet.replace("<v>1</v>", "<v>42.5</v>"));
  });

  it("rewrites cells the read found without reading the part again, as rewriteSheet does, and declines a cell it does not know", () => {
    const part = `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row r="1"><x:c r="A1" s="2"><x:f>B1*2</x:f><x:v>1</x:v></x:c><x:c r="B1"><x:v>3</x:v></x:c><x:c r="C1" cm="1" t="str"><x:f t="array" ref="C1">PRICES.MID("X")</x:f><x:v>a</x:v></x:c></x:row></x:sheetData></x:worksheet>`;
    const cells = new Map<string, SheetCell>();
    scanSheet(part, "sheet1.xml", { cell: (cell) => void cells.set(cell.address, cell) });
    const known = { prefix: "x:", cell: (address: string) => cells.get(address) };
    const asked = edits({ A1: { kind: "result", value: 6 }, C1: { kind: "freeze", value: "b&c" } });
    expect(rewriteKnownCells(part, asked, known)).toBe(rewriteSheet(part, "sheet1.xml", asked));
    expect(rewriteKnownCells(part, asked, known)).toContain('<x:c r="C1" t="inlineStr"><x:is><x:t>b&amp;c</x:t></x:is></x:c>');
    expect(rewriteKnownCells(part, edits({ A1: { kind: "result", value: 6 }, D1: { kind: "result", value: 1 } }), known)).toBeUndefined();
  });

  it("adds a spill's new cells in column order within their rows and new rows in row order", () => {
    const out = rewriteSheet(
      sheet,
      "sheet1.xml",
      edits({ B1: { kind: "result", value: "x" }, D1: { kind: "result", value: true }, A2: { kind: "result", value: 2 }, A3: { kind: "result", value: 3 }, C5: { kind: "result", value: null }, A6: { kind: "result", value: 6 } }),
    );
    expect(out).toBe(
      `<worksheet xmlns="${MAIN}"><sheetData>` +
        '<row r="1"><c r="A1" s="2"><f>PRICES.MID("X")</f><v>1</v></c><c r="B1" t="str"><v>x</v></c><c r="C1" t="s"><v>0</v></c><c r="D1" t="b"><v>1</v></c></row>' +
        '<row r="2"><c r="A2"><v>2</v></c></row>' +
        '<row r="3" spans="1:3"><c r="A3"><v>3</v></c></row>' +
        '<row r="5"><c r="B5"><v>7</v></c></row>' +
        '<row r="6"><c r="A6"><v>6</v></c></row>' +
        "</sheetData><legacyDrawing r:id=\"rId2\"/><tableParts count=\"1\"><tablePart r:id=\"rId1\"/></tableParts></worksheet>",
    );
  });

  it("writes under the part's own prefix (x:) and fills an empty sheetData", () => {
    const prefixed = `<x:worksheet xmlns:x="${MAIN}"><x:sheetData/></x:worksheet>`;
    expect(rewriteSheet(prefixed, "sheet1.xml", edits({ B2: { kind: "result", value: "a<b" } }))).toBe(
      `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row r="2"><x:c r="B2" t="str"><x:v>a&lt;b</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
    );
  });

  it("freezes a dynamic array's anchor: the formula and cm go, the style stays, text becomes an inline string", () => {
    const part = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" s="4" cm="1" t="str"><f t="array" ref="A1:A2">PRICES.HISTORY("X")</f><v>old</v></c></row><row r="2"><c r="A2" s="4" t="str"><v>old</v></c></row></sheetData></worksheet>`;
    const out = rewriteSheet(part, "sheet1.xml", edits({ A1: { kind: "freeze", value: "2025-05-01" }, A2: { kind: "freeze", value: 12 } }));
    expect(out).toBe(
      `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" s="4" t="inlineStr"><is><t>2025-05-01</t></is></c></row><row r="2"><c r="A2" s="4"><v>12</v></c></row></sheetData></worksheet>`,
    );
  });

  it("gives a dynamic array its new area and empties the cells it no longer covers, keeping their style", () => {
    const part = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" cm="1"><f t="array" ref="A1:A3">SEQUENCE(3)</f><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row><row r="3"><c r="A3" s="1"><v>3</v></c></row></sheetData></worksheet>`;
    const out = rewriteSheet(part, "sheet1.xml", edits({ A1: { kind: "result", value: 5, ref: "A1:A2" }, A2: { kind: "result", value: 6 }, A3: { kind: "result", value: null } }));
    expect(out).toBe(
      `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" cm="1"><f t="array" ref="A1:A2">SEQUENCE(3)</f><v>5</v></c></row><row r="2"><c r="A2"><v>6</v></c></row><row r="3"><c r="A3" s="1"/></row></sheetData></worksheet>`,
    );
  });
});

describe("sheetEdits", () => {
  const result = (values: SheetResult["values"], spills: SheetResult["spills"], leftForExcel: SheetResult["leftForExcel"] = []): SheetResult => ({ name: "Model", values, spills, leftForExcel, dataTypes: {} });

  it("keeps a legacy array formula's fixed area, showing #N/A where the result does not reach, as Excel does", () => {
    const formulas = new Map<string, FormulaSource>([["A1", { text: "X", callsPrices: false, array: { area: parseRangeAddress("A1:A3") ?? { top: 0, left: 0, bottom: 0, right: 0 }, dynamic: false } }]]);
    const { edits: planned } = sheetEdits(formulas, result({ A1: 1, A2: 2 }, [{ anchor: "A1", area: "A1:A2" }]), false);
    expect(Object.fromEntries(planned)).toEqual({
      A1: { kind: "result", value: 1, ref: "A1:A3" },
      A2: { kind: "result", value: 2 },
      A3: { kind: "result", value: { kind: "error", code: "#N/A" } },
    });
  });

  it("never touches a formula left for Excel, and freezes a shared formula's first cell only with its whole group", () => {
    const formulas = new Map<string, FormulaSource>([
      ["B1", { text: "PRICES.MID(A1)", callsPrices: true, shared: { index: "0", first: true } }],
      ["B2", { text: "PRICES.MID(A2)", callsPrices: true, shared: { index: "0", first: false } }],
      ["C1", { text: "PRICES.MID(A1)", callsPrices: true }],
    ]);
    const { edits: planned, frozen, notFrozen } = sheetEdits(formulas, result({ B1: 1, B2: 2, C1: 3 }, [], [{ cell: "B2", formula: "PRICES.MID(A2)", why: "depends on A2 (left for Excel)" }]), true);
    expect(Object.fromEntries(planned)).toEqual({ B1: { kind: "result", value: 1 }, C1: { kind: "freeze", value: 3 } });
    expect([...frozen.keys()]).toEqual(["C1"]);
    // neither PRICES formula kept goes unsaid
    expect(Object.fromEntries(notFrozen)).toEqual({
      B2: { formula: "PRICES.MID(A2)", why: "left for Excel: depends on A2 (left for Excel)" },
      B1: { formula: "PRICES.MID(A1)", why: "it holds the text of a shared formula (si 0) whose other cells stay formulas" },
    });
  });
});

describe("sheetEdits with freeze", () => {
  it("keeps a PRICES formula whose result is an error as a formula, and says so", () => {
    const formulas = new Map<string, FormulaSource>([
      ["A1", { text: "PRICES.MID(Symbol)", callsPrices: true }],
      ["A2", { text: 'PRICES.MID("MB-AL-0004")', callsPrices: true }],
    ]);
    const sheet: SheetResult = { name: "Model", values: { A1: { kind: "error", code: "#NAME?", message: "unknown name Symbol" }, A2: 12.5 }, spills: [], dataTypes: {} };
    const { edits: planned, frozen, notFrozen } = sheetEdits(formulas, sheet, true);
    expect(Object.fromEntries(planned)).toEqual({ A1: { kind: "result", value: { kind: "error", code: "#NAME?", message: "unknown name Symbol" } }, A2: { kind: "freeze", value: 12.5 } });
    expect([...frozen.keys()]).toEqual(["A2"]);
    expect(Object.fromEntries(notFrozen)).toEqual({ A1: { formula: "PRICES.MID(Symbol)", why: "its result is an error, #NAME?: unknown name Symbol: the formula is kept" } });
  });
});

describe("sheetEdits freezing a spill", () => {
  it("freezes every cell of it, and keeps each error's message for the provenance sheet", () => {
    const formulas = new Map<string, FormulaSource>([["C1", { text: "PRICES.MID(A1:A2)", callsPrices: true }]]);
    const sheet: SheetResult = { name: "Model", values: { C1: 12.5, C2: { kind: "error", code: "#N/A", message: "unknown symbol" } }, spills: [{ anchor: "C1", area: "C1:C2" }], dataTypes: {} };
    const { edits: planned, frozen, frozenErrors } = sheetEdits(formulas, sheet, true);
    expect(Object.fromEntries(planned)).toEqual({ C1: { kind: "freeze", value: 12.5 }, C2: { kind: "freeze", value: { kind: "error", code: "#N/A", message: "unknown symbol" } } });
    expect([...frozen.keys()]).toEqual(["C1"]);
    expect(Object.fromEntries(frozenErrors)).toEqual({ C2: { formula: "PRICES.MID(A1:A2)", area: "C1:C2", error: "#N/A: unknown symbol" } });
  });
});

describe("CellsRead", () => {
  const sheets = new Map([
    ["model", "Model"],
    ["my inputs", "My inputs"],
  ]);

  it("knows the cells formulas name, on their sheet or another, and skips another workbook's", () => {
    const read = new CellsRead();
    read.add(referencesOf("Model", parseExpression("=_xldudf_PRICES_MID($A2,'My inputs'!B$1)+SUM(C1:C3)+[1]Rates!$B$2"), sheets));
    expect(read.everything).toBe(false);
    expect([read.reads("Model", 1, 0), read.reads("My inputs", 0, 1), read.reads("Model", 2, 2), read.reads("Model", 3, 2), read.reads("Model", 0, 1)]).toEqual([true, true, true, false, false]);
  });

  it("knows a whole column as all its cells", () => {
    const read = new CellsRead();
    read.add(referencesOf("Model", parseExpression("=SUM(B:B)"), sheets));
    expect(read.everything).toBe(false);
    expect([read.reads("Model", 1_048_575, 1), read.reads("Model", 0, 0)]).toEqual([true, false]);
  });

  it.each(["=TaxRate*2", '=INDIRECT("A1")', "=OFFSET(A1,1,1)", "=Trades[Qty]", "=LET(x,2,x*3)"])("needs every cell for %s without the book's names", (formula) => {
    const read = new CellsRead();
    read.add(referencesOf("Model", parseExpression(formula), sheets));
    expect(read.everything).toBe(true);
  });
});

describe("readWorkbookFile", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "prices-xlsx-read-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function write(name: string, files: Record<string, string>): string {
    const path = join(dir, name);
    writeFileSync(path, zipSync(Object.fromEntries(Object.entries(files).map(([part, text]) => [part, strToU8(text)]))));
    return path;
  }

  const rels = (entries: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;
  const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  /** The parts of a book whose one sheet, Model, is xl/worksheets/sheet1.xml (the test adds it). */
  const oneSheetModel = {
    "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/>`),
    "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>`),
  };

  it("reads an Open XML SDK book (x: prefix): shared formulas at each cell, inline and shared strings, booleans, dates, names and tables", () => {
    const path = write("sdk.xlsx", {
      "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      "_rels/.rels": rels(`<Relationship Id="R1" Type="${R}/officeDocument" Target="/xl/workbook.xml"/>`),
      "xl/workbook.xml": `<x:workbook xmlns:x="${MAIN}" xmlns:r="${R}"><x:workbookPr date1904="true"/><x:sheets><x:sheet name="Data" sheetId="1" r:id="R2"/></x:sheets><x:definedNames><x:definedName name="Rate" localSheetId="0">Data!$A$1</x:definedName><x:definedName name="TaxRate">0.2</x:definedName></x:definedNames></x:workbook>`,
      "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="R2" Type="${R}/worksheet" Target="/xl/worksheets/data.xml"/><Relationship Id="R3" Type="${R}/sharedStrings" Target="/xl/strings.xml"/>`),
      "xl/strings.xml": `<x:sst xmlns:x="${MAIN}"><x:si><x:r><x:t>MB-</x:t></x:r><x:r><x:t>AL</x:t></x:r><x:rPh><x:t>ignored</x:t></x:rPh></x:si></x:sst>`,
      "xl/worksheets/data.xml": `<x:worksheet xmlns:x="${MAIN}" xmlns:r="${R}"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>=not a formula</x:t></x:is></x:c><x:c r="C1" t="b"><x:v>1</x:v></x:c><x:c r="D1" t="d"><x:v>2024-03-01</x:v></x:c></x:row><x:row r="2"><x:c r="A2"><x:f t="shared" ref="A2:A3" si="4">D1+1</x:f><x:v>1</x:v></x:c><x:c r="E2"><x:f>_xldudf_PRICES_MID(A2,A3)</x:f></x:c></x:row><x:row r="3"><x:c r="A3"><x:f t="shared" si="4"/><x:v>1</x:v></x:c></x:row></x:sheetData><x:tableParts count="1"><x:tablePart r:id="T1"/></x:tableParts></x:worksheet>`,
      "xl/worksheets/_rels/data.xml.rels": rels(`<Relationship Id="T1" Type="${R}/table" Target="../tables/t.xml"/>`),
      "xl/tables/t.xml": `<table xmlns="${MAIN}" id="1" name="Table1" displayName="Prices" ref="F1:G3" totalsRowCount="1"><tableColumns count="2"><tableColumn id="1" name="Symbol"/><tableColumn id="2" name="Mid"/></tableColumns></table>`,
    });
    const book = readWorkbookFile(path);
    expect(book.dateSystem).toBe("1904");
    // E2's price reads the shared formula's cells (the price cone); they read D1
    expect(book.sheets).toEqual([{ name: "Data", book: { cells: { D1: isoDateToSerial("2024-03-01", "1904"), A2: "=D1+1", E2: "=_xldudf_PRICES_MID(A2,A3)", A3: "=D2+1" }, legacy: ["A2", "E2", "A3"], saved: { A2: 1, A3: 1 } } }]);
    // the source's fields (the read's record also holds where the formula lies, its tree and its cell)
    const { text, callsPrices, shared, saved, array } = book.formulas.get("Data")?.get("A3") ?? { text: "", callsPrices: true };
    expect({ text, callsPrices, shared, saved, array }).toEqual({ text: "D2+1", callsPrices: false, shared: { index: "4", first: false }, saved: 1 });
    expect(book.names).toEqual([
      { name: "Rate", sheet: "Data", refersTo: "Data!$A$1" },
      { name: "TaxRate", refersTo: "0.2" },
    ]);
    expect(book.tables).toEqual([{ name: "Prices", sheet: "Data", ref: "F1:G3", headerRowCount: 1, totalsRowCount: 1, columns: ["Symbol", "Mid"] }]);
  });

  it("reads every cell when a formula's reach depends on evaluation, strings as the book holds them", () => {
    const path = write("openpyxl.xlsx", {
      "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/>`),
      "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${R}"><workbookPr/><sheets><sheet name="Sheet" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="/xl/worksheets/sheet1.xml"/>`),
      // openpyxl's paths for a note and a chart: the reader leaves them to the copy
      "xl/worksheets/sheet1.xml": `<worksheet xmlns="${MAIN}" xmlns:r="${R}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>'quoted</t></is></c><c r="B1" t="e"><v>#N/A</v></c><c r="C1"><f>INDIRECT("A1")</f></c><c r="D1"><f>_xldudf_PRICES_MID(A1)</f></c></row></sheetData><drawing r:id="rId1"/><legacyDrawing r:id="anysvml"/></worksheet>`,
      "xl/worksheets/_rels/sheet1.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/drawing" Target="/xl/drawings/drawing1.xml"/><Relationship Id="comments" Type="${R}/comments" Target="/xl/comments/comment1.xml"/><Relationship Id="anysvml" Type="${R}/vmlDrawing" Target="/xl/drawings/commentsDrawing1.vml"/>`),
      "xl/comments/comment1.xml": `<comments xmlns="${MAIN}"><authors><author>openpyxl</author></authors><commentList><comment ref="A1" authorId="0"><text><t>note</t></text></comment></commentList></comments>`,
      "xl/drawings/commentsDrawing1.vml": "<xml/>",
    });
    // with a price in the book, a formula whose reach only evaluation can tell is in the price cone
    expect(readWorkbookFile(path).sheets).toEqual([{ name: "Sheet", book: { cells: { A1: "''quoted", B1: { error: "#N/A" }, C1: '=INDIRECT("A1")', D1: "=_xldudf_PRICES_MID(A1)" }, legacy: ["C1", "D1"], saved: {} } }]);
  });

  it("leaves for Excel what reads a formula kept as saved, through a chain and a saved spill", () => {
    const path = write("dependents.xlsx", {
      ...oneSheetModel,
      "xl/worksheets/sheet1.xml":
        `<worksheet xmlns="${MAIN}"><sheetData>` +
        '<row r="1"><c r="A1"><f t="dataTable" ref="A1" dt2D="0" dtr="0" r1="Z1"/><v>5</v></c><c r="B1" cm="1"><f t="array" ref="B1:B2">A1*{1;2}</f><v>5</v></c><c r="C1"><f>B2+1</f><v>11</v></c><c r="D1"><f>_xldudf_PRICES_MID(1)</f><v>2</v></c></row>' +
        '<row r="2"><c r="B2"><v>10</v></c></row>' +
        "</sheetData></worksheet>",
    });
    const book = readWorkbookFile(path);
    expect(book.kept.map((entry) => [entry.cell, entry.why])).toEqual([
      ["A1", expect.stringMatching(/what-if data table/)],
      ["B1", "depends on Model!A1 (left for Excel)"],
      ["C1", "depends on Model!B2 (left for Excel)"],
    ]);
    // the engine gets the one formula still evaluated and the cells it reads (none)
    expect(book.sheets).toEqual([{ name: "Model", book: { cells: { D1: "=_xldudf_PRICES_MID(1)" }, legacy: ["D1"], saved: { D1: 2 } } }]);
    expect([...(book.formulas.get("Model")?.keys() ?? [])]).toEqual(["D1"]);
  });

  it("gives the engine the entries right of and below a formula, where its result may spill, even when no formula reads them", () => {
    const path = write("shadow.xlsx", {
      ...oneSheetModel,
      "xl/worksheets/sheet1.xml":
        `<worksheet xmlns="${MAIN}"><sheetData>` +
        '<row r="1"><c r="B1" t="inlineStr"><is><t>above</t></is></c></row>' +
        '<row r="2"><c r="B2"><f>_xlfn.SEQUENCE(3)+_xldudf_PRICES_MID(D1)</f><v>1</v></c><c r="D2" t="inlineStr"><is><t>right</t></is></c></row>' +
        '<row r="4"><c r="B4" t="inlineStr"><is><t>below</t></is></c></row>' +
        '<row r="5"><c r="A5" t="inlineStr"><is><t>left</t></is></c></row>' +
        "</sheetData></worksheet>",
    });
    expect(readWorkbookFile(path).sheets).toEqual([{ name: "Model", book: { cells: { B2: "=_xlfn.SEQUENCE(3)+_xldudf_PRICES_MID(D1)", D2: "right", B4: "below" }, legacy: ["B2"], saved: { B2: 1 } } }]);
  });

  it("hands the engine whole columns inside SUM and its kind and the book's structured references; keeps a whole column whose blanks count, with why", () => {
    const path = write("whole-and-tables.xlsx", {
      ...oneSheetModel,
      "xl/worksheets/sheet1.xml":
        `<worksheet xmlns="${MAIN}" xmlns:r="${R}"><sheetData>` +
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Qty</t></is></c><c r="B1" t="inlineStr"><is><t>Price</t></is></c><c r="C1" t="inlineStr"><is><t>Amount</t></is></c><c r="E1"><f>SUM(B:B)</f><v>1</v></c><c r="F1"><f>SUM(Trades[Amount])</f><v>1</v></c><c r="G1"><f>COUNTIF(B:B,"&lt;&gt;x")</f><v>1</v></c><c r="H1"><f>G1+1</f><v>2</v></c></row>' +
        '<row r="2"><c r="A2"><v>2</v></c><c r="B2"><v>10</v></c><c r="C2"><f>Trades[[#This Row],[Qty]]*Trades[[#This Row],[Price]]</f><v>0</v></c></row>' +
        '<row r="3"><c r="A3"><v>3</v></c><c r="B3"><v>20</v></c><c r="C3"><f>[@Qty]*[@Price]</f><v>0</v></c></row>' +
        '</sheetData><tableParts count="1"><tablePart r:id="T1"/></tableParts></worksheet>',
      "xl/worksheets/_rels/sheet1.xml.rels": rels(`<Relationship Id="T1" Type="${R}/table" Target="../tables/table1.xml"/>`),
      "xl/tables/table1.xml": `<table xmlns="${MAIN}" id="1" name="Trades" displayName="Trades" ref="A1:C3"><tableColumns count="3"><tableColumn id="1" name="Qty"/><tableColumn id="2" name="Price"/><tableColumn id="3" name="Amount"/></tableColumns></table>`,
    });
    const book = readWorkbookFile(path);
    // Excel counts the 1,048,573 blank cells of B that are not "x"; the engine reads B's used area only
    expect(book.kept.map((entry) => [entry.cell, entry.why])).toEqual([
      ["G1", expect.stringMatching(/^B:B: a whole row or column is evaluated only inside SUM, .*COUNTIF\(S\) with criteria that skip blanks/)],
      ["H1", "depends on Model!G1 (left for Excel)"],
    ]);
    expect([...(book.formulas.get("Model")?.keys() ?? [])]).toEqual(["E1", "F1", "C2", "C3"]);
  });
});
