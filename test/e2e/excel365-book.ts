/**
 * A model workbook written part by part in the forms Excel 365 saves (raw XML zipped with fflate: exceljs cannot write
 * most of these): PRICES in Excel's `_xldudf_` form, a shared formula, a dynamic array with `cm` and metadata.xml, a
 * legacy array formula, a pivot table and its cache, a chart, an external link, threaded comments with their fallback
 * note, workbook and sheet protection, constant, local and print-area names, an in-workbook hyperlink, sparklines in
 * the worksheet's extLst, a table with a note and a table without headerRowCount (calculated column, dataDxfId),
 * docProps/custom.xml; optionally macros (.xlsm) and the 1904 date system.
 */
import { strToU8, zipSync, type Zippable } from "fflate";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG = "http://schemas.openxmlformats.org/package/2006/relationships";
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

export interface BookOptions {
  readonly symbols: readonly [string, string];
  readonly date: string;
  readonly from: string;
  readonly to: string;
  /** The history the service holds for the first symbol between from and to, oldest first: the saved spill covers as many rows. */
  readonly history: readonly { readonly date: string; readonly mid: number }[];
  readonly macros?: boolean;
  readonly date1904?: boolean;
  /** The main namespace under a prefix, as the Open XML SDK writes it (`x:`). */
  readonly prefix?: string;
  /** Whether the workbook protection locks the structure (default true, as Excel's Protect Workbook does); --freeze refuses such a book. */
  readonly structureLocked?: boolean;
}

/** Every formula cell of the Model sheet the refresh evaluates, and the cells its spill covers. */
export interface BookLayout {
  readonly refreshed: readonly string[];
  /** Formula cells the runner keeps as saved (external link, table references). */
  readonly kept: readonly string[];
}

function relationships(entries: readonly [string, string, string, string?][]): string {
  const rels = entries.map(([id, type, target, mode]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"${mode ? ` TargetMode="${mode}"` : ""}/>`);
  return `${HEAD}<Relationships xmlns="${PKG}">${rels.join("")}</Relationships>`;
}

export function excel365Book(options: BookOptions): { bytes: Uint8Array; layout: BookLayout } {
  const p = options.prefix ?? "";
  const ns = p === "" ? `xmlns="${MAIN}"` : `xmlns:${p.slice(0, -1)}="${MAIN}"`;
  const [first, second] = options.symbols;
  const { date, from, to, history } = options;
  const bottom = history.length;
  const files: Zippable = {};
  const add = (name: string, text: string): void => {
    files[name] = strToU8(text);
  };
  const workbookType = options.macros ? "application/vnd.ms-excel.sheet.macroEnabled.main+xml" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml";
  add(
    "[Content_Types].xml",
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>' +
      (options.macros ? '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>' : "") +
      `<Override PartName="/xl/workbook.xml" ContentType="${workbookType}"/>` +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet3.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '<Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"/>' +
      '<Override PartName="/xl/tables/table1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/>' +
      '<Override PartName="/xl/tables/table2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/>' +
      '<Override PartName="/xl/comments1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"/>' +
      '<Override PartName="/xl/threadedComments/threadedComment1.xml" ContentType="application/vnd.ms-excel.threadedcomments+xml"/>' +
      '<Override PartName="/xl/persons/person.xml" ContentType="application/vnd.ms-excel.person+xml"/>' +
      '<Override PartName="/xl/pivotTables/pivotTable1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotTable+xml"/>' +
      '<Override PartName="/xl/pivotCache/pivotCacheDefinition1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheDefinition+xml"/>' +
      '<Override PartName="/xl/pivotCache/pivotCacheRecords1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheRecords+xml"/>' +
      '<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>' +
      '<Override PartName="/xl/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>' +
      '<Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/>' +
      '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>' +
      "</Types>",
  );
  add(
    "_rels/.rels",
    relationships([
      ["rId3", "http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties", "docProps/app.xml"],
      ["rId2", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties", "docProps/core.xml"],
      ["rId1", `${R}/officeDocument`, "xl/workbook.xml"],
      ["rId4", `${R}/custom-properties`, "docProps/custom.xml"],
    ]),
  );
  add(
    "docProps/app.xml",
    `${HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Microsoft Excel</Application><TitlesOfParts><vt:vector size="3" baseType="lpstr"><vt:lpstr>Model</vt:lpstr><vt:lpstr>Notes</vt:lpstr><vt:lpstr>Trades</vt:lpstr></vt:vector></TitlesOfParts><AppVersion>16.0300</AppVersion></Properties>`,
  );
  add(
    "docProps/core.xml",
    `${HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>Finance</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2025-05-01T08:00:00Z</dcterms:created></cp:coreProperties>`,
  );
  add(
    "docProps/custom.xml",
    `${HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="MSIP_Label_0a1b2c3d_Enabled"><vt:lpwstr>true</vt:lpwstr></property><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="MSIP_Label_0a1b2c3d_Name"><vt:lpwstr>Confidential</vt:lpwstr></property></Properties>`,
  );
  const workbookRels: [string, string, string][] = [
    ["rId1", `${R}/worksheet`, "worksheets/sheet1.xml"],
    ["rId2", `${R}/worksheet`, "worksheets/sheet2.xml"],
    ["rId3", `${R}/worksheet`, "worksheets/sheet3.xml"],
    ["rId4", `${R}/theme`, "theme/theme1.xml"],
    ["rId5", `${R}/styles`, "styles.xml"],
    ["rId6", `${R}/sharedStrings`, "sharedStrings.xml"],
    ["rId7", `${R}/sheetMetadata`, "metadata.xml"],
    ["rId8", `${R}/pivotCacheDefinition`, "pivotCache/pivotCacheDefinition1.xml"],
    ["rId9", `${R}/externalLink`, "externalLinks/externalLink1.xml"],
    ["rId10", "http://schemas.microsoft.com/office/2017/10/relationships/person", "persons/person.xml"],
  ];
  workbookRels.push(["rId20", `${R}/calcChain`, "calcChain.xml"]);
  if (options.macros) workbookRels.push(["rId11", "http://schemas.microsoft.com/office/2006/relationships/vbaProject", "vbaProject.bin"]);
  add("xl/_rels/workbook.xml.rels", relationships(workbookRels));
  add(
    "xl/workbook.xml",
    `${HEAD}<${p}workbook ${ns} xmlns:r="${R}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr6="http://schemas.microsoft.com/office/spreadsheetml/2016/revision6" xmlns:xr10="http://schemas.microsoft.com/office/spreadsheetml/2016/revision10" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2">` +
      `<${p}fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="28127"/>` +
      `<${p}workbookPr ${options.macros ? 'codeName="ThisWorkbook" ' : ""}${options.date1904 ? 'date1904="1" ' : ""}defaultThemeVersion="202300"/>` +
      `<${p}workbookProtection workbookAlgorithmName="SHA-512" workbookHashValue="aGFzaA==" workbookSaltValue="c2FsdA==" workbookSpinCount="100000" lockStructure="${options.structureLocked === false ? 0 : 1}"/>` +
      `<${p}bookViews><${p}workbookView xWindow="-110" yWindow="-110" windowWidth="25820" windowHeight="15500"/></${p}bookViews>` +
      `<${p}sheets><${p}sheet name="Model" sheetId="1" r:id="rId1"/><${p}sheet name="Notes" sheetId="2" r:id="rId2"/><${p}sheet name="Trades" sheetId="3" r:id="rId3"/></${p}sheets>` +
      `<${p}externalReferences><${p}externalReference r:id="rId9"/></${p}externalReferences>` +
      `<${p}definedNames><${p}definedName name="_xlnm.Print_Area" localSheetId="0">Model!$A$1:$H$${bottom}</${p}definedName><${p}definedName name="Rate" localSheetId="0">Model!$B$2</${p}definedName><${p}definedName name="TaxRate">0.2</${p}definedName></${p}definedNames>` +
      `<${p}calcPr calcId="191029"/>` +
      `<${p}pivotCaches><${p}pivotCache cacheId="3" r:id="rId8"/></${p}pivotCaches>` +
      `<${p}extLst><${p}ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><x15:workbookPr chartTrackingRefBase="1"/></${p}ext></${p}extLst>` +
      `</${p}workbook>`,
  );
  add(
    "xl/styles.xml",
    `${HEAD}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>` +
      '<fonts count="2"><font><sz val="11"/><name val="Aptos Narrow"/></font><font><b/><sz val="11"/><name val="Aptos Narrow"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="1"><dxf><numFmt numFmtId="4" formatCode="#,##0.00"/></dxf></dxfs></styleSheet>',
  );
  add("xl/theme/theme1.xml", `${HEAD}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements><a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="0E2841"/></a:dk2><a:lt2><a:srgbClr val="E8E8E8"/></a:lt2><a:accent1><a:srgbClr val="156082"/></a:accent1><a:accent2><a:srgbClr val="E97132"/></a:accent2><a:accent3><a:srgbClr val="196B24"/></a:accent3><a:accent4><a:srgbClr val="0F9ED5"/></a:accent4><a:accent5><a:srgbClr val="A02B93"/></a:accent5><a:accent6><a:srgbClr val="4EA72E"/></a:accent6><a:hlink><a:srgbClr val="467886"/></a:hlink><a:folHlink><a:srgbClr val="96607D"/></a:folHlink></a:clrScheme><a:fontScheme name="Office"><a:majorFont><a:latin typeface="Aptos Display"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Aptos Narrow"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Office"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst><a:lnStyleLst><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`);
  const strings = ["Symbol", "Mid", first, second, "Prepared for the morning meeting", "Trade", "Qty", "Price", "Total", "T-1", "T-2"];
  add("xl/sharedStrings.xml", `${HEAD}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((text) => `<si><t>${text}</t></si>`).join("")}</sst>`);
  add("xl/calcChain.xml", `${HEAD}<calcChain xmlns="${MAIN}"><c r="B2" i="1"/><c r="B3"/><c r="C2"/><c r="C3"/><c r="D2"/><c r="E2"/><c r="E3"/><c r="E4" a="1"/><c r="F1" a="1"/><c r="D2" i="3"/></calcChain>`);
  add(
    "xl/metadata.xml",
    `${HEAD}<metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`,
  );
  if (options.macros) files["xl/vbaProject.bin"] = Uint8Array.from({ length: 1536 }, (_, index) => (index * 37 + 11) % 256);

  // Model: symbols, PRICES in Excel's saved form, a shared formula over them, a date, a dynamic array, a legacy array formula.
  const serial = (iso: string): number => (Date.parse(`${iso}T00:00:00Z`) - Date.UTC(options.date1904 ? 1904 : 1899, options.date1904 ? 0 : 11, options.date1904 ? 1 : 30)) / 86_400_000;
  const c = (ref: string, attributes: string, inner: string): string => `<${p}c r="${ref}"${attributes}>${inner}</${p}c>`;
  const v = (text: string | number): string => `<${p}v>${text}</${p}v>`;
  const f = (text: string, attributes = ""): string => `<${p}f${attributes}>${text}</${p}f>`;
  const rows: string[][] = Array.from({ length: Math.max(bottom, 4) }, () => []);
  const put = (row: number, cell: string): void => void rows[row - 1]?.push(cell);
  put(1, c("A1", ' s="1" t="s"', v(0)));
  put(1, c("B1", ' s="1" t="s"', v(1)));
  put(2, c("A2", ' t="s"', v(2)));
  put(3, c("A3", ' t="s"', v(3)));
  put(2, c("B2", ' s="3"', f(`_xldudf_PRICES_MID(A2,&quot;${date}&quot;)`) + v(1)));
  put(3, c("B3", ' s="3"', f(`[2]!_xldudf_PRICES_MID(A3,&quot;${date}&quot;)`) + v(2)));
  put(2, c("C2", "", f("B2*2", ' t="shared" ref="C2:C3" si="0"') + v(2)));
  put(3, c("C3", "", f("", ' t="shared" si="0"').replace(`></${p}f>`, "/>") + v(4)));
  put(2, c("D2", ' s="2"', f(`INDEX(_xldudf_PRICES_HISTORY(A2,&quot;${from}&quot;,&quot;${to}&quot;,&quot;date&quot;,0),1)`) + v(serial(from) - 3)));
  put(2, c("E2", "", f("[1]Rates!$B$2") + v(0.05)));
  put(3, c("E3", "", f("B2*(1+E2)") + v(1.05)));
  put(4, c("E4", "", f("SUM(IF(B2:B3&gt;1,B2:B3,0))", ' t="array" ref="E4"') + v(2)));
  history.forEach((record, index) => {
    const row = index + 1;
    if (index === 0) put(row, c(`F${row}`, ' cm="1" t="str"', f(`_xldudf_PRICES_HISTORY(A2,&quot;${from}&quot;,&quot;${to}&quot;,&quot;date,mid&quot;,0,,,,&quot;text&quot;)`, ` t="array" ref="F1:G${bottom}"`) + v("2000-01-01")));
    else put(row, c(`F${row}`, ' t="str"', v("2000-01-01")));
    put(row, c(`G${row}`, "", v(1)));
  });
  const sheetRows = rows.map((cells, index) => `<${p}row r="${index + 1}" spans="1:7"${index === 0 ? ' ht="15" customHeight="1"' : ""}>${cells.sort((a, b) => column(a) - column(b)).join("")}</${p}row>`);
  add(
    "xl/worksheets/sheet1.xml",
    `${HEAD}<${p}worksheet ${ns} xmlns:r="${R}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3" xr:uid="{00000000-0001-0000-0000-000000000000}">` +
      `<${p}sheetPr${options.macros ? ' codeName="Sheet1"' : ""}/><${p}dimension ref="A1:G${bottom}"/>` +
      `<${p}sheetViews><${p}sheetView tabSelected="1" workbookViewId="0"><${p}selection activeCell="B2" sqref="B2"/></${p}sheetView></${p}sheetViews>` +
      `<${p}sheetFormatPr defaultRowHeight="14.5" x14ac:dyDescent="0.35"/><${p}cols><${p}col min="1" max="1" width="14.6" customWidth="1"/></${p}cols>` +
      `<${p}sheetData>${sheetRows.join("")}</${p}sheetData>` +
      `<${p}sheetProtection algorithmName="SHA-512" hashValue="aGFzaA==" saltValue="c2FsdA==" spinCount="100000" sheet="1" objects="1" scenarios="1"/>` +
      `<${p}conditionalFormatting sqref="B2:B3"><${p}cfRule type="cellIs" dxfId="0" priority="1" operator="greaterThan"><${p}formula>100</${p}formula></${p}cfRule></${p}conditionalFormatting>` +
      `<${p}hyperlinks><${p}hyperlink ref="A1" location="'Notes'!A1" display="Notes"/></${p}hyperlinks>` +
      `<${p}pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>` +
      `<${p}drawing r:id="rId1"/>` +
      `<${p}extLst><${p}ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:sparklineGroup displayEmptyCellsAs="gap"><x14:colorSeries rgb="FF156082"/><x14:sparklines><x14:sparkline><xm:f>Model!G1:G${bottom}</xm:f><xm:sqref>H1</xm:sqref></x14:sparkline></x14:sparklines></x14:sparklineGroup></x14:sparklineGroups></${p}ext></${p}extLst>` +
      `</${p}worksheet>`,
  );
  add("xl/worksheets/_rels/sheet1.xml.rels", relationships([["rId1", `${R}/drawing`, "../drawings/drawing1.xml"]]));
  add(
    "xl/drawings/drawing1.xml",
    `${HEAD}<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:twoCellAnchor editAs="oneCell"><xdr:from><xdr:col>8</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>15</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>15</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Mid chart"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="${R}" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`,
  );
  add("xl/drawings/_rels/drawing1.xml.rels", relationships([["rId1", `${R}/chart`, "../charts/chart1.xml"]]));
  add(
    "xl/charts/chart1.xml",
    `${HEAD}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${R}"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/><c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/><c:cat><c:strRef><c:f>Model!$F$1:$F$${bottom}</c:f></c:strRef></c:cat><c:val><c:numRef><c:f>Model!$G$1:$G$${bottom}</c:f></c:numRef></c:val><c:smooth val="0"/></c:ser><c:marker val="1"/><c:axId val="1"/><c:axId val="2"/></c:lineChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>`,
  );

  // Notes: text and a threaded comment with its fallback note.
  add(
    "xl/worksheets/sheet2.xml",
    `${HEAD}<${p}worksheet ${ns} xmlns:r="${R}"><${p}dimension ref="A1:A2"/><${p}sheetData><${p}row r="1"><${p}c r="A1" t="s"><${p}v>4</${p}v></${p}c></${p}row><${p}row r="2"><${p}c r="A2"><${p}v>7</${p}v></${p}c></${p}row></${p}sheetData><${p}sheetProtection password="CC1A" sheet="1" objects="1" scenarios="1"/><${p}pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><${p}legacyDrawing r:id="rId1"/></${p}worksheet>`,
  );
  add(
    "xl/worksheets/_rels/sheet2.xml.rels",
    relationships([
      ["rId1", `${R}/vmlDrawing`, "../drawings/vmlDrawing1.vml"],
      ["rId2", `${R}/comments`, "../comments1.xml"],
      ["rId3", "http://schemas.microsoft.com/office/2017/10/relationships/threadedComment", "../threadedComments/threadedComment1.xml"],
    ]),
  );
  add(
    "xl/comments1.xml",
    `${HEAD}<comments xmlns="${MAIN}"><authors><author>tc={6E1E0C5B-3F4A-4C4B-9D5E-1A2B3C4D5E6F}</author></authors><commentList><comment ref="A1" authorId="0" shapeId="0"><text><t>[Threaded comment]\nYour version of Excel allows you to read this threaded comment; however, any edits to it will get removed if the file is opened in a newer version of Excel.\nComment:\n    Check the carried prices before the meeting</t></text></comment></commentList></comments>`,
  );
  add(
    "xl/threadedComments/threadedComment1.xml",
    `${HEAD}<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" xmlns:x="${MAIN}"><threadedComment ref="A1" dT="2025-05-14T08:00:00.00" personId="{A1B2C3D4-0000-0000-0000-000000000001}" id="{6E1E0C5B-3F4A-4C4B-9D5E-1A2B3C4D5E6F}"><text>Check the carried prices before the meeting</text></threadedComment></ThreadedComments>`,
  );
  add(
    "xl/persons/person.xml",
    `${HEAD}<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments" xmlns:x="${MAIN}"><person displayName="Analyst" id="{A1B2C3D4-0000-0000-0000-000000000001}" userId="analyst@example.com" providerId="AD"/></personList>`,
  );
  add(
    "xl/drawings/vmlDrawing1.vml",
    '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel"><o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype><v:shape id="_x0000_s1025" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;margin-top:1.5pt;width:108pt;height:59.25pt;z-index:1;visibility:hidden" fillcolor="infoBackground [80]" o:insetmode="auto"><v:fill color2="infoBackground [80]"/><v:textbox/><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:AutoFill>False</x:AutoFill><x:Row>0</x:Row><x:Column>0</x:Column></x:ClientData></v:shape></xml>',
  );

  // Trades: a table with a note (legacyDrawing before tableParts, as the schema orders them), and a table without headerRowCount.
  add(
    "xl/worksheets/sheet3.xml",
    `${HEAD}<${p}worksheet ${ns} xmlns:r="${R}"><${p}dimension ref="A1:D3"/><${p}sheetData>` +
      `<${p}row r="1"><${p}c r="A1" t="s"><${p}v>5</${p}v></${p}c><${p}c r="B1" t="s"><${p}v>6</${p}v></${p}c><${p}c r="C1" t="s"><${p}v>7</${p}v></${p}c><${p}c r="D1" t="s"><${p}v>8</${p}v></${p}c></${p}row>` +
      `<${p}row r="2"><${p}c r="A2" t="s"><${p}v>9</${p}v></${p}c><${p}c r="B2"><${p}v>10</${p}v></${p}c><${p}c r="C2"><${p}v>2.5</${p}v></${p}c><${p}c r="D2" s="3"><${p}f>Trades[[#This Row],[Qty]]*Trades[[#This Row],[Price]]</${p}f><${p}v>25</${p}v></${p}c></${p}row>` +
      `<${p}row r="3"><${p}c r="A3" t="s"><${p}v>10</${p}v></${p}c><${p}c r="B3"><${p}v>4</${p}v></${p}c><${p}c r="C3"><${p}v>3</${p}v></${p}c><${p}c r="D3" s="3"><${p}f>Trades[[#This Row],[Qty]]*Trades[[#This Row],[Price]]</${p}f><${p}v>12</${p}v></${p}c></${p}row>` +
      `<${p}row r="6"><${p}c r="A6"><${p}v>1</${p}v></${p}c></${p}row>` +
      `</${p}sheetData><${p}pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><${p}legacyDrawing r:id="rId3"/><${p}tableParts count="2"><${p}tablePart r:id="rId1"/><${p}tablePart r:id="rId2"/></${p}tableParts></${p}worksheet>`,
  );
  add(
    "xl/worksheets/_rels/sheet3.xml.rels",
    relationships([
      ["rId1", `${R}/table`, "../tables/table1.xml"],
      ["rId2", `${R}/table`, "../tables/table2.xml"],
      ["rId3", `${R}/vmlDrawing`, "../drawings/vmlDrawing2.vml"],
      ["rId4", `${R}/comments`, "../comments2.xml"],
      ["rId5", `${R}/pivotTable`, "../pivotTables/pivotTable1.xml"],
    ]),
  );
  add(
    "xl/tables/table1.xml",
    `${HEAD}<table xmlns="${MAIN}" id="1" name="Trades" displayName="Trades" ref="A1:D3" totalsRowShown="0"><autoFilter ref="A1:D3"/><tableColumns count="4"><tableColumn id="1" name="Trade"/><tableColumn id="2" name="Qty"/><tableColumn id="3" name="Price"/><tableColumn id="4" name="Total" dataDxfId="0"><calculatedColumnFormula>Trades[[#This Row],[Qty]]*Trades[[#This Row],[Price]]</calculatedColumnFormula></tableColumn></tableColumns><tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>`,
  );
  add(
    "xl/tables/table2.xml",
    `${HEAD}<table xmlns="${MAIN}" id="2" name="Flags" displayName="Flags" ref="A6:A6" headerRowCount="0" totalsRowShown="0"><tableColumns count="1"><tableColumn id="1" name="Column1"/></tableColumns><tableStyleInfo name="TableStyleLight1" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>`,
  );
  add(
    "xl/comments2.xml",
    `${HEAD}<comments xmlns="${MAIN}"><authors><author>Analyst</author></authors><commentList><comment ref="A1" authorId="0" shapeId="0"><text><r><t>Trades booked this week</t></r></text></comment></commentList></comments>`,
  );
  add(
    "xl/drawings/vmlDrawing2.vml",
    '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel"><v:shape id="_x0000_s2049" type="#_x0000_t202" style="position:absolute;visibility:hidden"><x:ClientData ObjectType="Note"><x:Row>0</x:Row><x:Column>0</x:Column></x:ClientData></v:shape></xml>',
  );
  add(
    "xl/pivotTables/pivotTable1.xml",
    `${HEAD}<pivotTableDefinition xmlns="${MAIN}" name="PivotTable1" cacheId="3" applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1" dataCaption="Values" updatedVersion="8" minRefreshableVersion="3" createdVersion="8" indent="0" outline="1" outlineData="1"><location ref="F1:G3" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/><pivotFields count="4"><pivotField axis="axisRow" showAll="0"><items count="3"><item x="0"/><item x="1"/><item t="default"/></items></pivotField><pivotField dataField="1" showAll="0"/><pivotField showAll="0"/><pivotField showAll="0"/></pivotFields><rowFields count="1"><field x="0"/></rowFields><rowItems count="2"><i><x/></i><i><x v="1"/></i></rowItems><colItems count="1"><i/></colItems><dataFields count="1"><dataField name="Sum of Qty" fld="1" baseField="0" baseItem="0"/></dataFields></pivotTableDefinition>`,
  );
  add("xl/pivotTables/_rels/pivotTable1.xml.rels", relationships([["rId1", `${R}/pivotCacheDefinition`, "../pivotCache/pivotCacheDefinition1.xml"]]));
  add(
    "xl/pivotCache/pivotCacheDefinition1.xml",
    `${HEAD}<pivotCacheDefinition xmlns="${MAIN}" xmlns:r="${R}" r:id="rId1" refreshedBy="Analyst" refreshedDate="45791.5" createdVersion="8" refreshedVersion="8" minRefreshableVersion="3" recordCount="2"><cacheSource type="worksheet"><worksheetSource name="Trades"/></cacheSource><cacheFields count="4"><cacheField name="Trade" numFmtId="0"><sharedItems count="2"><s v="T-1"/><s v="T-2"/></sharedItems></cacheField><cacheField name="Qty" numFmtId="0"><sharedItems containsSemiMixedTypes="0" containsString="0" containsNumber="1" containsInteger="1" minValue="4" maxValue="10"/></cacheField><cacheField name="Price" numFmtId="0"><sharedItems containsSemiMixedTypes="0" containsString="0" containsNumber="1" minValue="2.5" maxValue="3"/></cacheField><cacheField name="Total" numFmtId="0"><sharedItems containsSemiMixedTypes="0" containsString="0" containsNumber="1" minValue="12" maxValue="25"/></cacheField></cacheFields></pivotCacheDefinition>`,
  );
  add("xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels", relationships([["rId1", `${R}/pivotCacheRecords`, "pivotCacheRecords1.xml"]]));
  add(
    "xl/pivotCache/pivotCacheRecords1.xml",
    `${HEAD}<pivotCacheRecords xmlns="${MAIN}" count="2"><r><x v="0"/><n v="10"/><n v="2.5"/><n v="25"/></r><r><x v="1"/><n v="4"/><n v="3"/><n v="12"/></r></pivotCacheRecords>`,
  );
  add(
    "xl/externalLinks/externalLink1.xml",
    `${HEAD}<externalLink xmlns="${MAIN}" xmlns:r="${R}"><externalBook r:id="rId1"><sheetNames><sheetName val="Rates"/></sheetNames><sheetDataSet><sheetData sheetId="0"><row r="2"><cell r="B2"><v>0.05</v></cell></row></sheetData></sheetDataSet></externalBook></externalLink>`,
  );
  add("xl/externalLinks/_rels/externalLink1.xml.rels", relationships([["rId1", `${R}/externalLinkPath`, "rates.xlsx", "External"]]));
  const spill = history.flatMap((_, index) => [`F${index + 1}`, `G${index + 1}`]);
  return {
    bytes: zipSync(files, { mtime: new Date(2025, 4, 14) }),
    layout: { refreshed: ["B2", "B3", "C2", "C3", "D2", "E3", "E4", ...spill], kept: ["E2"] },
  };
}

function column(cell: string): number {
  const letters = /r="([A-Z]+)/.exec(cell)?.[1] ?? "A";
  return [...letters].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0);
}
