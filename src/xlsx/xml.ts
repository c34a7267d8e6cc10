/**
 * The one XML reader of the .xlsx side: saxes (a streaming, conforming parser) with the position of every element in
 * the part's text, so an edit can replace exactly one element and copy everything around it as it was.
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { escapeAttribute } from "./escape";

/** A part that is not well-formed XML: the file is damaged. */
export class XmlPartError extends Error {
  override readonly name = "XmlPartError";
}

/** Where an element lies in its part's text: `start` at `<`, `openEnd` after its start tag, `closeStart` at `</` (= `end` when self-closing). */
export interface ElementSpan {
  readonly start: number;
  readonly openEnd: number;
  readonly closeStart: number;
  readonly end: number;
}

export interface XmlElement extends ElementSpan {
  /** Without its prefix: `c` for `<x:c>`. */
  readonly name: string;
  /** As written: `x:c`. */
  readonly qualifiedName: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text (entities decoded), its children's left out. */
  readonly text: string;
}

export function localName(qualifiedName: string): string {
  const colon = qualifiedName.indexOf(":");
  return colon < 0 ? qualifiedName : qualifiedName.slice(colon + 1);
}

/** The prefix with its colon (`x:`), or "" for the default namespace. */
export function prefixOf(qualifiedName: string): string {
  const colon = qualifiedName.indexOf(":");
  return colon < 0 ? "" : qualifiedName.slice(0, colon + 1);
}

export interface TagEvents {
  /** An element's start tag was read; `start` is its `<`, `openEnd` just after its `>`. */
  open?(tag: { readonly qualifiedName: string; readonly name: string; readonly attributes: Readonly<Record<string, string>>; readonly start: number; readonly openEnd: number; readonly selfClosing: boolean }): void;
  /** Its end tag was read (right after `open` for `<a/>`); `closeStart` = `end` when self-closing. */
  close?(tag: { readonly name: string; readonly closeStart: number; readonly end: number }): void;
  text?: (text: string) => void;
}

/** Reads `xml` start to end, calling `events` with every element's position; a malformed part throws XmlPartError naming `part`. */
export function scanXml(xml: string, part: string, events: TagEvents): void {
  scanXmlAround(xml, part, xml.length, xml.length, events);
}

/**
 * scanXml of `xml` without `xml.slice(gapStart, gapEnd)` (content another reader checked: sheet-scan.ts), positions as
 * in `xml`; what is read must be well-formed without it.
 */
export function scanXmlAround(xml: string, part: string, gapStart: number, gapEnd: number, events: TagEvents): void {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const shift = gapEnd - gapStart;
  const at = (position: number): number => (position > gapStart ? position + shift : position);
  let failure: Error | undefined;
  const starts: number[] = [];
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentagstart", () => {
    starts.push(xml.lastIndexOf("<", at(parser.position) - 1));
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    const start = starts[starts.length - 1] ?? 0;
    events.open?.({ qualifiedName: tag.name, name: localName(tag.name), attributes: tag.attributes, start, openEnd: at(parser.position), selfClosing: tag.isSelfClosing });
  });
  parser.on("closetag", (tag: SaxesTagPlain) => {
    starts.pop();
    const end = at(parser.position);
    events.close?.({ name: localName(tag.name), closeStart: tag.isSelfClosing ? end : xml.lastIndexOf("</", end - 1), end });
  });
  if (events.text) {
    const onText = events.text;
    parser.on("text", onText);
    parser.on("cdata", onText);
  }
  if (gapStart === xml.length) parser.write(xml);
  else parser.write(xml.slice(0, gapStart)).write(xml.slice(gapEnd));
  parser.close();
  if (failure) throw new XmlPartError(`${part} is not well-formed XML: ${failure.message}`);
}

/**
 * A part checked as it is fed, a chunk at a time (a 25 MB sheet is no 50 MB string, and the event loop stays free
 * between chunks): well-formed and namespace-well-formed (every prefix bound), as strict as XML 1.0 asks.
 */
export class WellFormedCheck {
  private readonly parser = new SaxesParser({ xmlns: true });
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private failure: string | undefined;
  private root = false;

  constructor(private readonly part: string) {
    this.parser.on("error", (error) => {
      this.failure ??= error.message;
    });
    this.parser.on("opentagstart", () => {
      this.root = true;
    });
  }

  write(chunk: Uint8Array | string): void {
    if (this.failure !== undefined) return;
    try {
      this.parser.write(typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true }));
    } catch {
      this.failure ??= "not UTF-8";
    }
  }

  /** Throws XmlPartError naming the part unless everything written was one well-formed document. */
  close(): void {
    if (this.failure === undefined) {
      try {
        this.parser.write(this.decoder.decode()).close();
      } catch {
        this.failure ??= "not UTF-8";
      }
    }
    if (this.failure !== undefined) throw new XmlPartError(`${this.part} is not well-formed XML: ${this.failure}`);
    if (!this.root) throw new XmlPartError(`${this.part} has no root element`);
  }
}

/** Throws XmlPartError naming `part` unless `xml` is well-formed and namespace-well-formed. */
export function checkWellFormed(xml: string, part: string): void {
  const check = new WellFormedCheck(part);
  check.write(xml);
  check.close();
}

interface Building {
  qualifiedName: string;
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: XmlElement[];
  text: string;
  start: number;
  openEnd: number;
}

/** The whole part as a tree of elements with their positions (for the small parts: workbook, relationships, tables, strings). */
export function parseXml(xml: string, part: string): XmlElement {
  const stack: Building[] = [];
  let root: XmlElement | undefined;
  scanXml(xml, part, {
    open: (tag) => stack.push({ ...tag, children: [], text: "" }),
    close: ({ closeStart, end }) => {
      const building = stack.pop();
      if (!building) return;
      const element: XmlElement = { ...building, closeStart, end };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else root = element;
    },
    text: (text) => {
      const current = stack[stack.length - 1];
      if (current) current.text += text;
    },
  });
  if (!root) throw new XmlPartError(`${part} has no root element`);
  return root;
}

export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((candidate) => candidate.name === name);
}

export function children(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((candidate) => candidate.name === name);
}

/**
 * What ECMA-376's ST_Xstring writes as `_xHHHH_`: the characters XML 1.0 forbids (C0 controls but tab and line feed;
 * U+FFFE, U+FFFF; a lone surrogate, which the `u` flag sees alone), a carriage return (a parser would read it as a line
 * feed), and an underscore that would read as the start of an escape.
 */
// eslint-disable-next-line no-control-regex -- the control characters ST_Xstring escapes are what this matches
const XSTRING_ESCAPED = /[\u0000-\u0008\u000b-\u001f\ud800-\udfff\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)/gu;
const XSTRING_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** A string value as Excel writes it (ST_Xstring): `CHAR(7)` as `_x0007_`, a literal `_x0041_` as `_x005F_x0041_`; XML's own escapes apart. */
export function encodeXstring(text: string): string {
  // eslint-disable-next-line no-control-regex -- the same characters, tested before replacing
  if (!/[\u0000-\u001f_\ud800-\udfff\ufffe\uffff]/.test(text)) return text;
  return text.replace(XSTRING_ESCAPED, (char) => `_x${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}_`);
}

/** A string value as Excel reads it: every `_xHHHH_` is the character it names (`_x005F_` an underscore). */
export function decodeXstring(text: string): string {
  if (!text.includes("_x")) return text;
  return text.replace(XSTRING_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A start tag with `attributes` in their order (`<x:c r="A1" s="3">`, or `/>` closed). */
export function startTag(qualifiedName: string, attributes: Readonly<Record<string, string>>, selfClosing = false): string {
  // one string grown in place, no array of pieces: the refresh writes this for each of the model's 19,800 cells
  let tag = `<${qualifiedName}`;
  for (const [name, value] of Object.entries(attributes)) tag += ` ${name}="${escapeAttribute(value)}"`;
  return tag + (selfClosing ? "/>" : ">");
}

/** Text with pieces replaced: each edit swaps `text.slice(start, end)` for `replacement` (start = end inserts); edits must not overlap. */
export function splice(text: string, edits: readonly { readonly start: number; readonly end: number; readonly replacement: string }[]): string {
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let cursor = 0;
  for (const edit of ordered) {
    pieces.push(text.slice(cursor, edit.start), edit.replacement);
    cursor = edit.end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join("");
}
