/**
 * The zip package of a workbook, with fflate (MIT, no dependencies): every entry read as it is, in its order, so the
 * copy written holds the same entries, unchanged but for the few parts the refresh edits. Relationships resolve here.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { Zip, ZipDeflate, unzipSync } from "fflate";
import { XmlPartError, children, parseXml, type XmlElement } from "./xml";

/** A file the runner cannot read as a workbook: exit code 2 with this one-line message. */
export class WorkbookFileError extends Error {
  override readonly name = "WorkbookFileError";
}

const ZIP = [0x50, 0x4b];
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The stream an encrypted .xlsx keeps inside its compound file (UTF-16 in the directory). */
const ENCRYPTION_INFO = Buffer.from("EncryptionInfo", "utf16le");

export const RELATIONSHIP_TYPES = {
  officeDocument: "/officeDocument",
  worksheet: "/worksheet",
  sharedStrings: "/sharedStrings",
  table: "/table",
  externalLink: "/externalLink",
} as const;

export interface Relationship {
  readonly id: string;
  readonly type: string;
  /** The part it points to, resolved from the source part (`xl/worksheets/sheet1.xml`); for an external target, the target as written. */
  readonly target: string;
  readonly external: boolean;
}

export class WorkbookPackage {
  private readonly decoder = new TextDecoder("utf-8", { fatal: false });

  private constructor(
    readonly path: string,
    /** Every entry, in the order the zip lists them. */
    readonly entries: Map<string, Uint8Array>,
  ) {}

  static read(path: string): WorkbookPackage {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      throw new WorkbookFileError(`cannot read ${path}`);
    }
    checkSignature(path, bytes);
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(bytes);
    } catch (error) {
      throw new WorkbookFileError(`${path} is a damaged zip (truncated or corrupt): ${error instanceof Error ? error.message : String(error)}`);
    }
    const map = new Map(Object.entries(entries));
    if (!map.has("[Content_Types].xml") || !map.has("_rels/.rels")) {
      throw new WorkbookFileError(`${path} is a zip but not a workbook (it has no [Content_Types].xml or _rels/.rels)`);
    }
    return new WorkbookPackage(path, map);
  }

  has(part: string): boolean {
    return this.entries.has(part);
  }

  text(part: string): string {
    const bytes = this.entries.get(part);
    if (!bytes) throw new WorkbookFileError(`${this.path} is a damaged workbook: it has no part ${part}`);
    return this.decoder.decode(bytes);
  }

  xml(part: string): XmlElement {
    try {
      return parseXml(this.text(part), part);
    } catch (error) {
      if (error instanceof XmlPartError) throw new WorkbookFileError(`${this.path} is a damaged workbook: ${error.message}`);
      throw error;
    }
  }

  /** The relationships of `part` (none when it has no .rels part). */
  relationships(part: string): Relationship[] {
    const rels = relationshipsPart(part);
    if (!this.entries.has(rels)) return [];
    return children(this.xml(rels), "Relationship").map((element) => {
      const external = element.attributes.TargetMode === "External";
      const target = element.attributes.Target ?? "";
      return { id: element.attributes.Id ?? "", type: element.attributes.Type ?? "", target: external ? target : resolvePart(part, target), external };
    });
  }

  /** The workbook part the package's root relationship names (`xl/workbook.xml` in every file Excel writes). */
  workbookPart(): string {
    const main = this.relationships("").find((relationship) => relationship.type.endsWith(RELATIONSHIP_TYPES.officeDocument));
    if (!main || !this.entries.has(main.target)) throw new WorkbookFileError(`${this.path} is a zip but not a workbook (no workbook part)`);
    return main.target;
  }
}

/** The .rels part of a part (`xl/_rels/workbook.xml.rels`; `_rels/.rels` for the package). */
export function relationshipsPart(part: string): string {
  if (part === "") return "_rels/.rels";
  const dir = posix.dirname(part);
  return `${dir === "." ? "" : `${dir}/`}_rels/${posix.basename(part)}.rels`;
}

/** A relationship target read from `source`'s folder (`worksheets/sheet1.xml` from `xl/workbook.xml`), or from the root when it starts with `/`. */
export function resolvePart(source: string, target: string): string {
  if (target.startsWith("/")) return posix.normalize(target.slice(1));
  const dir = source === "" ? "" : posix.dirname(source);
  return posix.normalize(dir === "." || dir === "" ? target : `${dir}/${target}`);
}

/** A target as `source` would write it (relative to its folder). */
export function relativeTarget(source: string, part: string): string {
  return posix.relative(posix.dirname(source), part);
}

function checkSignature(path: string, bytes: Buffer): void {
  if (bytes.length === 0) throw new WorkbookFileError(`${path} is empty`);
  const starts = (signature: readonly number[]): boolean => signature.every((byte, index) => bytes[index] === byte);
  if (starts(ZIP)) return;
  if (starts(COMPOUND_FILE)) {
    if (bytes.includes(ENCRYPTION_INFO)) {
      throw new WorkbookFileError(`${path} is password-protected (encrypted): save it in Excel without a password to open, then run again`);
    }
    throw new WorkbookFileError(`${path} is an Excel 97-2003 .xls file: save it in Excel as an .xlsx workbook, then run again`);
  }
  throw new WorkbookFileError(`${path} is not an .xlsx file (an .xlsx is a zip package)`);
}

/** Excel's own timestamp for package entries: the copy is the same bytes for the same content. */
const ENTRY_TIME = new Date(1980, 0, 1);
/** Entries are compressed a slice at a time, the event loop free between slices (progress lines, signals). */
const SLICE = 1 << 20;

/**
 * Writes `entries` as a zip next to `output`, streamed to disk a slice at a time, and renames it there, so a failed
 * write leaves no half file; `progress` hears how far it got.
 */
export async function writePackage(entries: ReadonlyMap<string, Uint8Array>, output: string, progress: (message: string) => void = () => undefined): Promise<void> {
  const temporary = join(dirname(output), `.${basename(output)}.${process.pid}.tmp`);
  const fd = openSync(temporary, "w");
  let open = true;
  try {
    let failure: Error | null = null;
    const zip = new Zip((error, chunk) => {
      if (error) failure ??= error;
      else writeSync(fd, chunk);
    });
    const total = [...entries.values()].reduce((sum, data) => sum + data.length, 0);
    let written = 0;
    for (const [name, data] of entries) {
      const file = new ZipDeflate(name, { level: 6 });
      file.mtime = ENTRY_TIME;
      zip.add(file);
      for (let offset = 0; offset < data.length || offset === 0; offset += SLICE) {
        file.push(data.subarray(offset, offset + SLICE), offset + SLICE >= data.length);
        written += Math.min(SLICE, data.length - offset);
        progress(`workbook: writing ${output}, ${Math.round((100 * written) / Math.max(total, 1))} %`);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    zip.end();
    if (failure) throw failure;
    closeSync(fd);
    open = false;
    renameSync(temporary, output);
  } finally {
    if (open) closeSync(fd);
    rmSync(temporary, { force: true });
  }
}
