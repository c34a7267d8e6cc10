/**
 * Number formats added to a workbook's styles part, for the rich prices the runner writes as plain numbers: a cell
 * that showed `2,431.50 USD/MT` keeps that look through a `numFmt` and a cell format (`xf` in `cellXfs`) cloned from
 * the cell's own, so its font, fill, border, alignment and protection stay. A format or cell format the part already
 * has is reused (refreshing a refreshed copy adds nothing); every other byte of the part stays as it was.
 */
import type { WorkbookPackage } from "./package";
import { escapeAttribute } from "./escape";
import { type XmlElement, child, children, parseXml, prefixOf, splice, startTag } from "./xml";

/** The first id a workbook's own formats may take; 0-163 are Excel's built-in ones. */
const FIRST_CUSTOM_FORMAT = 164;
/** Where `numFmts` and `cellXfs` go when the part lacks them: after the elements the schema puts before them. */
const BEFORE_CELL_XFS = ["numFmts", "fonts", "fills", "borders", "cellStyleXfs"];

/** `attributes` with `name` set in its place, or added last. */
function withValue(attributes: Readonly<Record<string, string>>, name: string, value: string): Record<string, string> {
  return { ...attributes, [name]: value };
}

export class NumberFormatStyles {
  private readonly root: XmlElement;
  private readonly prefix: string;
  /** Format code -> id, the part's own and those added. */
  private readonly formatIds = new Map<string, number>();
  private nextFormatId: number;
  /** The cell formats as written (their text), by index; and text -> index to find one again. */
  private readonly xfs: string[];
  private readonly xfIndex = new Map<string, number>();
  private readonly xfFormats: (string | undefined)[];
  private readonly addedFormats: string[] = [];
  private readonly addedXfs: string[] = [];

  constructor(
    private readonly xml: string,
    private readonly part: string,
  ) {
    this.root = parseXml(xml, part);
    this.prefix = prefixOf(this.root.qualifiedName);
    let highest = FIRST_CUSTOM_FORMAT - 1;
    for (const format of children(child(this.root, "numFmts") ?? this.root, "numFmt")) {
      const id = Number(format.attributes.numFmtId);
      if (!Number.isInteger(id)) continue;
      highest = Math.max(highest, id);
      const code = format.attributes.formatCode;
      if (code !== undefined && !this.formatIds.has(code)) this.formatIds.set(code, id);
    }
    this.nextFormatId = highest + 1;
    const cellXfs = child(this.root, "cellXfs");
    const xfs = cellXfs === undefined ? [] : children(cellXfs, "xf");
    this.xfs = xfs.map((xf) => xml.slice(xf.start, xf.end));
    this.xfFormats = xfs.map((xf) => xf.attributes.numFmtId);
    if (this.xfs.length === 0) {
      this.xfs.push(`<${this.prefix}xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>`);
      this.xfFormats.push("0");
    }
    this.xfs.forEach((text, index) => {
      if (!this.xfIndex.has(text)) this.xfIndex.set(text, index);
    });
  }

  /** Whether the part needs writing: a format or cell format was added. */
  get changed(): boolean {
    return this.addedXfs.length > 0 || this.addedFormats.length > 0;
  }

  private formatId(code: string): number {
    const known = this.formatIds.get(code);
    if (known !== undefined) return known;
    const id = this.nextFormatId;
    this.nextFormatId += 1;
    this.formatIds.set(code, id);
    this.addedFormats.push(`<${this.prefix}numFmt numFmtId="${id}" formatCode="${escapeAttribute(code)}"/>`);
    return id;
  }

  /** The style index (`s`) for a cell whose style is `current` (none: 0) showing `format`, its other formatting kept. */
  styleFor(current: string | undefined, format: string): string {
    const parsed = current === undefined ? 0 : Number(current);
    const index = Number.isInteger(parsed) && parsed >= 0 && parsed < this.xfs.length ? parsed : 0;
    const id = String(this.formatId(format));
    if (this.xfFormats[index] === id) return String(index);
    const base = parseXml(this.xfs[index] ?? "", this.part);
    const attributes = withValue(withValue(base.attributes, "numFmtId", id), "applyNumberFormat", "1");
    const selfClosing = base.openEnd === base.end;
    const source = this.xfs[index] ?? "";
    const text = selfClosing ? startTag(base.qualifiedName, attributes, true) : `${startTag(base.qualifiedName, attributes)}${source.slice(base.openEnd, base.closeStart)}</${base.qualifiedName}>`;
    const known = this.xfIndex.get(text);
    if (known !== undefined) return String(known);
    const added = this.xfs.length;
    this.xfs.push(text);
    this.xfFormats.push(id);
    this.xfIndex.set(text, added);
    this.addedXfs.push(text);
    return String(added);
  }

  /** The part with the added formats and cell formats, every other byte as it was. */
  text(): string {
    if (!this.changed) return this.xml;
    const edits: { start: number; end: number; replacement: string }[] = [];
    const p = this.prefix;
    const numFmts = child(this.root, "numFmts");
    const cellXfs = child(this.root, "cellXfs");
    if (this.addedFormats.length > 0) {
      if (numFmts === undefined) {
        edits.push({ start: this.root.openEnd, end: this.root.openEnd, replacement: `<${p}numFmts count="${this.addedFormats.length}">${this.addedFormats.join("")}</${p}numFmts>` });
      } else edits.push(...this.appended(numFmts, children(numFmts, "numFmt").length, this.addedFormats));
    }
    if (cellXfs === undefined) {
      const before = this.root.children.filter((element) => BEFORE_CELL_XFS.includes(element.name)).at(-1);
      const at = before?.end ?? this.root.openEnd;
      // a part without cellXfs gets the default cell format first, so index 0 stays what it meant
      edits.push({ start: at, end: at, replacement: `<${p}cellXfs count="${this.xfs.length}">${this.xfs.join("")}</${p}cellXfs>` });
    } else edits.push(...this.appended(cellXfs, children(cellXfs, "xf").length, this.addedXfs));
    return splice(this.xml, edits);
  }

  /** The edits that append `items` to `element` and set its count. */
  private appended(element: XmlElement, existing: number, items: readonly string[]): { start: number; end: number; replacement: string }[] {
    const attributes = withValue(element.attributes, "count", String(existing + items.length));
    if (element.openEnd === element.end) {
      return [{ start: element.start, end: element.end, replacement: `${startTag(element.qualifiedName, attributes)}${items.join("")}</${element.qualifiedName}>` }];
    }
    return [
      { start: element.start, end: element.openEnd, replacement: startTag(element.qualifiedName, attributes) },
      { start: element.closeStart, end: element.closeStart, replacement: items.join("") },
    ];
  }
}

/** The workbook's styles part ready for number formats (read on first use), or undefined when the package has none. */
export function numberFormatStyles(pkg: WorkbookPackage, workbookPart: string): { readonly part: string; readonly styles: NumberFormatStyles } | undefined {
  const relationship = pkg.relationships(workbookPart).find((candidate) => candidate.type.endsWith("/styles") && !candidate.external && pkg.has(candidate.target));
  if (relationship === undefined) return undefined;
  let styles: NumberFormatStyles | undefined;
  return {
    part: relationship.target,
    get styles() {
      styles ??= new NumberFormatStyles(pkg.text(relationship.target), relationship.target);
      return styles;
    },
  };
}
