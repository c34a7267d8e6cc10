/**
 * What the workbook part and its neighbours say (sheets and their parts, the date system, defined names, tables,
 * shared strings), and the few edits the refresh makes to them: `fullCalcOnLoad`, and for `--freeze` one more sheet.
 */
import type { DefinedName, TableDefinition } from "../host/book-names";
import type { DateSystem } from "../formula/excel-dates";
import { RELATIONSHIP_TYPES, WorkbookPackage, relationshipsPart, relativeTarget, resolvePart } from "./package";
import { escapeAttribute } from "./escape";
import { richErrorsOf } from "./rich-errors";
import { type XmlElement, child, children, decodeXstring, parseXml, prefixOf, splice, startTag } from "./xml";

export const RELATIONSHIPS_NAMESPACE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const WORKSHEET_TYPE = `${RELATIONSHIPS_NAMESPACE}/worksheet`;
const WORKSHEET_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";

export interface WorkbookSheet {
  readonly name: string;
  /** The worksheet part (`xl/worksheets/sheet1.xml`); undefined for a chart sheet or dialog sheet, which hold no cells. */
  readonly part: string | undefined;
}

export interface WorkbookInfo {
  readonly part: string;
  /** Every sheet in the workbook's order (a local name's `localSheetId` counts in it). */
  readonly sheets: readonly WorkbookSheet[];
  readonly dateSystem: DateSystem;
  readonly names: readonly DefinedName[];
  readonly tables: readonly TableDefinition[];
  /** The shared string table, by index. */
  readonly sharedStrings: readonly string[];
  /** By a cell's `vm`, the error an error cell saved as `#VALUE!` really holds (rich-errors.ts). */
  readonly richErrors: ReadonlyMap<number, string>;
  /** Whether `<workbookProtection lockStructure="1">` forbids adding, removing or renaming sheets (Review > Protect Workbook). */
  readonly structureLocked: boolean;
}

function isTrue(value: string | undefined): boolean {
  return value === "1" || value === "true";
}

/** A relationship id attribute (`r:id`) whatever its prefix. */
function relationshipId(element: XmlElement): string | undefined {
  const key = Object.keys(element.attributes).find((name) => name === "id" || name.endsWith(":id"));
  return key === undefined ? undefined : element.attributes[key];
}

/** The text of a shared or inline string item: its `t`, or its runs' `t`s joined, `_xHHHH_` decoded; phonetic runs (`rPh`) are not text. */
export function stringItemText(item: XmlElement): string {
  const plain = child(item, "t");
  if (plain) return decodeXstring(plain.text);
  return decodeXstring(
    children(item, "r")
      .map((run) => child(run, "t")?.text ?? "")
      .join(""),
  );
}

function readTables(pkg: WorkbookPackage, sheet: string, part: string): TableDefinition[] {
  return pkg
    .relationships(part)
    .filter((relationship) => relationship.type.endsWith(RELATIONSHIP_TYPES.table) && !relationship.external && pkg.has(relationship.target))
    .map((relationship) => {
      const table = pkg.xml(relationship.target);
      const columns = child(table, "tableColumns");
      return {
        name: table.attributes.displayName ?? table.attributes.name ?? "",
        sheet,
        ref: table.attributes.ref ?? "",
        // Excel leaves headerRowCount out when it is 1 (the schema's default)
        headerRowCount: Number(table.attributes.headerRowCount ?? "1"),
        totalsRowCount: Number(table.attributes.totalsRowCount ?? "0"),
        columns: columns ? children(columns, "tableColumn").map((column) => column.attributes.name ?? "") : [],
      };
    });
}

export function readWorkbookInfo(pkg: WorkbookPackage): WorkbookInfo {
  const part = pkg.workbookPart();
  const workbook = pkg.xml(part);
  const relationships = pkg.relationships(part);
  const byId = new Map(relationships.map((relationship) => [relationship.id, relationship]));
  const sheets = children(child(workbook, "sheets") ?? workbook, "sheet").map((element): WorkbookSheet => {
    const relationship = byId.get(relationshipId(element) ?? "");
    const isWorksheet = relationship !== undefined && relationship.type.endsWith(RELATIONSHIP_TYPES.worksheet) && pkg.has(relationship.target);
    return { name: element.attributes.name ?? "", part: isWorksheet ? relationship.target : undefined };
  });
  const properties = child(workbook, "workbookPr");
  const dateSystem: DateSystem = isTrue(properties?.attributes.date1904) ? "1904" : "1900";
  const names = children(child(workbook, "definedNames") ?? workbook, "definedName").map((element): DefinedName => {
    const local = element.attributes.localSheetId;
    const sheet = local === undefined ? undefined : sheets[Number(local)]?.name;
    return { name: element.attributes.name ?? "", refersTo: element.text.replace(/^=/, ""), ...(sheet === undefined ? {} : { sheet }) };
  });
  const tables = sheets.flatMap((sheet) => (sheet.part === undefined ? [] : readTables(pkg, sheet.name, sheet.part)));
  const stringsPart = relationships.find((relationship) => relationship.type.endsWith(RELATIONSHIP_TYPES.sharedStrings) && !relationship.external);
  const sharedStrings = stringsPart && pkg.has(stringsPart.target) ? children(pkg.xml(stringsPart.target), "si").map(stringItemText) : [];
  const structureLocked = isTrue(child(workbook, "workbookProtection")?.attributes.lockStructure);
  const richErrors = richErrorsOf(pkg, relationships);
  return { part, sheets, dateSystem, names, tables, sharedStrings, richErrors, structureLocked };
}

/** Where `calcPr` goes when the workbook has none: before the first of these (CT_Workbook's order). */
const AFTER_CALC = ["oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing", "fileRecoveryPr", "webPublishObjects", "extLst"];

/** The workbook part with `<calcPr fullCalcOnLoad="1">`, so Excel recalculates every formula when it opens the copy. */
export function withFullCalcOnLoad(xml: string, part: string): string {
  const root = parseXml(xml, part);
  const calc = child(root, "calcPr");
  if (calc) {
    if (isTrue(calc.attributes.fullCalcOnLoad)) return xml;
    const attributes = { ...calc.attributes, fullCalcOnLoad: "1" };
    return splice(xml, [{ start: calc.start, end: calc.openEnd, replacement: startTag(calc.qualifiedName, attributes, calc.openEnd === calc.end) }]);
  }
  const before = root.children.find((element) => AFTER_CALC.includes(element.name));
  const at = before?.start ?? root.closeStart;
  return splice(xml, [{ start: at, end: at, replacement: `<${prefixOf(root.qualifiedName)}calcPr fullCalcOnLoad="1"/>` }]);
}

/** The prefix the root binds to the relationships namespace (`r:`), or undefined. */
function relationshipsPrefix(root: XmlElement): string | undefined {
  const binding = Object.entries(root.attributes).find(([name, value]) => name.startsWith("xmlns:") && value === RELATIONSHIPS_NAMESPACE);
  return binding === undefined ? undefined : `${binding[0].slice("xmlns:".length)}:`;
}

/**
 * The edits that add a worksheet part `sheetPart` named `name` at the end of the workbook: its entry in workbook.xml,
 * its relationship and its content type, read through `read` (the parts as edited so far). Returns the changed parts' new text.
 */
export function addWorksheet(read: (part: string) => string, workbookPart: string, name: string, sheetPart: string): Map<string, string> {
  const changed = new Map<string, string>();
  const relsPart = relationshipsPart(workbookPart);
  const relsXml = read(relsPart);
  const rels = parseXml(relsXml, relsPart);
  const ids = new Set(children(rels, "Relationship").map((element) => element.attributes.Id ?? ""));
  let number = ids.size + 1;
  while (ids.has(`rId${number}`)) number += 1;
  const id = `rId${number}`;
  const relationship = `<${prefixOf(rels.qualifiedName)}Relationship Id="${id}" Type="${WORKSHEET_TYPE}" Target="${escapeAttribute(relativeTarget(workbookPart, sheetPart))}"/>`;
  changed.set(relsPart, splice(relsXml, [{ start: rels.closeStart, end: rels.closeStart, replacement: relationship }]));

  const workbookXml = read(workbookPart);
  const workbook = parseXml(workbookXml, workbookPart);
  const sheets = child(workbook, "sheets");
  if (!sheets) throw new Error(`${workbookPart} has no sheets element`);
  const sheetIds = children(sheets, "sheet").map((element) => Number(element.attributes.sheetId ?? 0));
  const sheetId = Math.max(0, ...sheetIds) + 1;
  const known = relationshipsPrefix(workbook);
  const idAttribute = known === undefined ? `xmlns:r="${RELATIONSHIPS_NAMESPACE}" r:id` : `${known}id`;
  const entry = `<${prefixOf(workbook.qualifiedName)}sheet name="${escapeAttribute(name)}" sheetId="${sheetId}" ${idAttribute}="${id}"/>`;
  changed.set(workbookPart, splice(workbookXml, [{ start: sheets.closeStart, end: sheets.closeStart, replacement: entry }]));

  const typesXml = read("[Content_Types].xml");
  const types = parseXml(typesXml, "[Content_Types].xml");
  const override = `<${prefixOf(types.qualifiedName)}Override PartName="/${escapeAttribute(sheetPart)}" ContentType="${WORKSHEET_CONTENT_TYPE}"/>`;
  changed.set("[Content_Types].xml", splice(typesXml, [{ start: types.closeStart, end: types.closeStart, replacement: override }]));
  return changed;
}

/**
 * The edits that drop the part a workbook relationship of `type` names (its relationship and content type too), or
 * undefined when there is none. For the calculation chain: it lists formula cells, and Excel repairs a file whose
 * chain names a cell that no longer holds a formula; it rebuilds the chain itself.
 */
export function dropWorkbookPart(read: (part: string) => string, workbookPart: string, type: string): { part: string; changed: Map<string, string> } | undefined {
  const relsPart = relationshipsPart(workbookPart);
  const relsXml = read(relsPart);
  const rels = parseXml(relsXml, relsPart);
  const relationship = children(rels, "Relationship").find((element) => (element.attributes.Type ?? "").endsWith(type));
  if (!relationship) return undefined;
  const part = resolvePart(workbookPart, relationship.attributes.Target ?? "");
  const changed = new Map<string, string>([[relsPart, splice(relsXml, [{ start: relationship.start, end: relationship.end, replacement: "" }])]]);
  const typesXml = read("[Content_Types].xml");
  const types = parseXml(typesXml, "[Content_Types].xml");
  const override = children(types, "Override").find((element) => element.attributes.PartName === `/${part}`);
  if (override) changed.set("[Content_Types].xml", splice(typesXml, [{ start: override.start, end: override.end, replacement: "" }]));
  return { part, changed };
}
