/**
 * The zip package of a workbook, with fflate (MIT, no dependencies; its deflated entries inflated by Node's zlib,
 * zip-inflate.ts): every entry read as it is, in its order, so the copy written holds the same entries, unchanged but
 * for the few parts the refresh edits. Relationships resolve here.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { crc32, createDeflateRaw, inflateRaw } from "node:zlib";
import { type AsyncFlateStreamHandler, Zip, type ZipInputFile } from "fflate";
import { WellFormedCheck, XmlPartError, children, parseXml, type XmlElement } from "./xml";
import { directoryEntries } from "./zip-directory";
import { unzipped } from "./zip-inflate";

/** A file the runner cannot read as a workbook: exit code 2 with this one-line message. */
export class WorkbookFileError extends Error {
  override readonly name = "WorkbookFileError";
}

const ZIP = [0x50, 0x4b];
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The stream an encrypted .xlsx keeps inside its compound file (UTF-16 in the directory). */
const ENCRYPTION_INFO = Buffer.from("EncryptionInfo", "utf16le");
/** The stream of a Word 97-2003 document, the other compound file a user may have at hand. */
const WORD_STREAM = Buffer.from("WordDocument", "utf16le");

/** Office packages that are not workbooks, by their main part's content type: what to call them. */
const OTHER_DOCUMENTS: readonly (readonly [string, string])[] = [
  ["wordprocessingml", "a Word document (.docx)"],
  ["presentationml", "a PowerPoint presentation (.pptx)"],
];

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
    /** Entries as the zip holds them (compressed), to be copied unchanged; an entry missing here is compressed anew. */
    readonly stored: ReadonlyMap<string, StoredEntry> = new Map(),
  ) {}

  static read(path: string): WorkbookPackage {
    const bytes = readBook(path);
    checkSignature(path, bytes);
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipped(bytes);
    } catch (error) {
      throw new WorkbookFileError(`${path} is a damaged zip (truncated or corrupt): ${error instanceof Error ? error.message : String(error)}`);
    }
    const map = new Map(Object.entries(entries));
    if (!map.has("[Content_Types].xml") || !map.has("_rels/.rels")) {
      const mimetype = new TextDecoder().decode(map.get("mimetype") ?? new Uint8Array());
      if (mimetype.startsWith("application/vnd.oasis.opendocument.spreadsheet")) {
        throw new WorkbookFileError(`${path} is an OpenDocument spreadsheet (.ods), not an .xlsx: open it in Excel or LibreOffice and save it as .xlsx, then run again`);
      }
      throw new WorkbookFileError(`${path} is a zip but not a workbook (it has no [Content_Types].xml or _rels/.rels)`);
    }
    // readFileSync's bytes are never in a SharedArrayBuffer: the stored entries are views of them, as fflate takes them
    const pkg = new WorkbookPackage(path, map, storedEntries(path, new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), map));
    // a package whose main part is no workbook (a .docx renamed) is refused here, before the runner starts anything
    pkg.workbookPart();
    return pkg;
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
    const other = OTHER_DOCUMENTS.find(([type]) => this.contentType(main.target).includes(type));
    if (other) throw new WorkbookFileError(`${this.path} is ${other[1]}, not a workbook`);
    return main.target;
  }

  /** A part's content type from [Content_Types].xml (its Override, else the Default for its extension); "" when unsaid. */
  contentType(part: string): string {
    const types = this.xml("[Content_Types].xml");
    const override = children(types, "Override").find((element) => element.attributes.PartName === `/${part}`);
    if (override) return override.attributes.ContentType ?? "";
    const extension = posix.extname(part).slice(1).toLowerCase();
    return children(types, "Default").find((element) => element.attributes.Extension?.toLowerCase() === extension)?.attributes.ContentType ?? "";
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

/** The file's bytes, or why there are none in words (a missing file, a folder, no permission). */
function readBook(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "ENOENT") throw new WorkbookFileError(`${path} does not exist`);
    if (code === "EISDIR") throw new WorkbookFileError(`${path} is a folder, not a workbook file`);
    if (code === "EACCES" || code === "EPERM") throw new WorkbookFileError(`${path} cannot be read: permission denied`);
    throw new WorkbookFileError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Refuses, before anything starts, a file that is no workbook package: empty, text, an .xls, an encrypted workbook. */
export function checkWorkbookFile(path: string): void {
  checkSignature(path, readBook(path));
}

/** What a file that is no zip is, said so its owner knows what to do with it. */
function checkSignature(path: string, bytes: Buffer): void {
  if (bytes.length === 0) throw new WorkbookFileError(`${path} is empty (0 bytes): not a workbook`);
  const starts = (signature: readonly number[]): boolean => signature.every((byte, index) => bytes[index] === byte);
  if (starts(ZIP)) return;
  if (starts(COMPOUND_FILE)) {
    if (bytes.includes(ENCRYPTION_INFO)) {
      throw new WorkbookFileError(`${path} is encrypted (a password to open): remove the password in Excel (File > Info > Protect Workbook), save it, then run again`);
    }
    if (bytes.includes(WORD_STREAM)) throw new WorkbookFileError(`${path} is a Word 97-2003 document, not a workbook`);
    throw new WorkbookFileError(`${path} is an Excel 97-2003 workbook (.xls): open it in Excel and save it as .xlsx (Excel Workbook), then run again`);
  }
  const head = bytes.subarray(0, 4096);
  if (!head.includes(0)) {
    const text = head.toString("utf8").trimStart().toLowerCase();
    if (text.startsWith("<?xml") && text.includes("urn:schemas-microsoft-com:office:spreadsheet")) {
      throw new WorkbookFileError(`${path} is an Excel 2003 XML spreadsheet, not an .xlsx: open it in Excel and save it as .xlsx, then run again`);
    }
    if (/^(<!doctype html|<html|<table)/.test(text)) throw new WorkbookFileError(`${path} is a web page (HTML), not an .xlsx: open it in Excel and save it as .xlsx, then run again`);
    throw new WorkbookFileError(`${path} is a text file (CSV or other text), not an .xlsx: open it in Excel and save it as .xlsx, then run again`);
  }
  throw new WorkbookFileError(`${path} is not an .xlsx file (an .xlsx is a zip package; this file is not one)`);
}

/** An entry as the zip holds it: its compressed bytes, how they are compressed, and what they stand for. */
export interface StoredEntry {
  /** APPNOTE 4.4.5: 0 stored, 8 deflated. */
  readonly compression: number;
  readonly crc: number;
  /** Uncompressed size. */
  readonly size: number;
  /** The bytes after the local header, as compressed. */
  readonly data: Uint8Array<ArrayBuffer>;
  readonly modified: Date;
}

/**
 * The entries of `bytes` as stored, from its central directory (zip-directory.ts), for those `entries` holds; none
 * when the directory is not one that walker follows (a damaged one), and never an encrypted entry or one with zip64
 * sizes: those are compressed anew. An entry whose content does not match its CRC-32 (fflate does not check) makes
 * the file a damaged zip: its damage would otherwise be read, or copied into the refreshed file.
 */
function storedEntries(path: string, bytes: Uint8Array<ArrayBuffer>, entries: ReadonlyMap<string, Uint8Array>): Map<string, StoredEntry> {
  const stored = new Map<string, StoredEntry>();
  for (const entry of directoryEntries(bytes) ?? []) {
    const { name, flags, crc } = entry;
    const content = entries.get(name);
    if ((flags & 1) !== 0 || entry.zip64 || content === undefined) continue;
    if (crc32(content) !== crc) throw new WorkbookFileError(`${path} is a damaged zip (corrupt): ${name} does not match its CRC-32`);
    if (entry.localCrc === undefined) continue;
    // without a data descriptor (bit 3) the local header repeats the CRC; a reader that trusts it would see damage
    if ((flags & 8) === 0 && entry.localCrc !== crc) throw new WorkbookFileError(`${path} is a damaged zip (corrupt): ${name}'s local header gives another CRC-32 than the directory`);
    if (entry.data === undefined) continue;
    stored.set(name, { compression: entry.compression, crc, size: entry.size, data: entry.data, modified: dosDate(entry.date, entry.time) });
  }
  return stored;
}

/** A DOS date and time as the local Date fflate writes back to the same fields; Excel's own 1980 when it is no date. */
function dosDate(date: number, time: number): Date {
  const month = (date >> 5) & 15;
  const day = date & 31;
  if (month < 1 || month > 12 || day < 1) return ENTRY_TIME;
  return new Date((date >> 9) + 1980, month - 1, day, time >> 11, (time >> 5) & 63, (time & 31) * 2);
}

/** An unchanged entry written as the input held it: its compressed bytes, method, CRC and time, never recompressed. */
class StoredCopy implements ZipInputFile {
  readonly size: number;
  readonly crc: number;
  readonly compression: number;
  readonly mtime: Date;
  ondata?: AsyncFlateStreamHandler;

  constructor(
    readonly filename: string,
    entry: StoredEntry,
  ) {
    this.size = entry.size;
    this.crc = entry.crc;
    this.compression = entry.compression;
    this.mtime = entry.modified;
  }

  push(chunk: Uint8Array<ArrayBuffer>, final: boolean): void {
    this.ondata?.(null, chunk, final);
  }
}

/** `data` deflated (level 6, as before) by zlib on its thread pool a slice at a time, `progress` hearing each slice's length as it is done. */
async function deflated(data: Uint8Array, progress: (bytes: number) => void): Promise<StoredEntry> {
  const stream = createDeflateRaw({ level: 6 });
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.once("end", resolve);
    stream.once("error", reject);
  });
  for (let offset = 0; offset < data.length; offset += SLICE) {
    const slice = data.subarray(offset, offset + SLICE);
    await new Promise<void>((resolve, reject) => {
      stream.write(slice, (error) => { if (error) reject(error); else resolve(); });
    });
    progress(slice.length);
  }
  stream.end();
  await ended;
  const joined = Buffer.concat(chunks);
  return { compression: 8, crc: crc32(data), size: data.length, data: new Uint8Array(joined.buffer, joined.byteOffset, joined.length), modified: ENTRY_TIME };
}

/** The parts a copy writes anew: XML every one (worksheets, the workbook, relationships, content types, styles). */
const XML_PART = /\.(xml|rels)$/i;

/**
 * Parses `bytes`, a part written anew, with a strict XML parser a slice at a time, the event loop free between slices
 * (progress lines, and zlib's deflate of the same part on its thread pool meanwhile): a part Excel would have to repair
 * is never delivered.
 */
async function checkPart(part: string, bytes: Uint8Array, output: string, progress: (message: string) => void): Promise<void> {
  try {
    const check = new WellFormedCheck(part);
    for (let offset = 0; offset < bytes.length; offset += SLICE) {
      check.write(bytes.subarray(offset, offset + SLICE));
      progress(`workbook: checking ${output}, ${part} ${Math.round((100 * Math.min(bytes.length, offset + SLICE)) / Math.max(bytes.length, 1))} % parsed`);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    check.close();
  } catch (error) {
    if (!(error instanceof XmlPartError)) throw error;
    throw new WorkbookFileError(`cannot write ${output}: ${error.message}, so nothing was written (the input is untouched)`);
  }
}

/**
 * Reads the zip just written at `temporary` back and finds in it each of `parts` (the entries written anew, their
 * content as checked): its directory's CRC-32, its compressed bytes inflated by zlib off this thread, byte for byte
 * what was parsed; the copy is renamed into place only then.
 */
export async function readBack(temporary: string, output: string, parts: ReadonlyMap<string, Uint8Array>): Promise<void> {
  if (parts.size === 0) return;
  const fail = (why: string): WorkbookFileError => new WorkbookFileError(`cannot write ${output}: ${why}, so nothing was written (the input is untouched)`);
  const file = readFileSync(temporary);
  let stored: ReadonlyMap<string, StoredEntry>;
  try {
    stored = storedEntries(temporary, new Uint8Array(file.buffer, file.byteOffset, file.length), parts);
  } catch (error) {
    if (!(error instanceof WorkbookFileError)) throw error;
    throw fail(`the zip written does not read back (${error.message})`);
  }
  await Promise.all(
    [...parts].map(async ([part, content]) => {
      const entry = stored.get(part);
      if (entry === undefined) throw fail(`${part} is missing from the zip`);
      const read = entry.compression === 8 ? await inflating(entry.data) : entry.compression === 0 ? Buffer.from(entry.data) : undefined;
      if (read === undefined || !read.equals(content)) throw fail(`${part} does not read back from the zip as it was written`);
    }),
  );
}

/** Raw deflate data inflated by zlib on its thread pool. */
function inflating(data: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    inflateRaw(data, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

/** `data` deflated (zlib, off this thread) while this thread parses it when it is an XML part; the check's failure first. */
async function deflatedAndChecked(name: string, data: Uint8Array, output: string, report: (bytes: number) => void, progress: (message: string) => void): Promise<StoredEntry> {
  const deflating = deflated(data, report);
  // a failed check waits for the deflate to end (no stream left writing into a closed file), then is the one thrown
  const checking = XML_PART.test(name) ? checkPart(name, data, output, progress) : Promise.resolve();
  const [entry, check] = await Promise.allSettled([deflating, checking]);
  if (check.status === "rejected") throw check.reason;
  if (entry.status === "rejected") throw entry.reason;
  return entry.value;
}

/** Excel's own timestamp for package entries: the copy is the same bytes for the same content. */
const ENTRY_TIME = new Date(1980, 0, 1);
/** Entries are compressed a slice at a time, the event loop free between slices (progress lines, signals). */
const SLICE = 1 << 20;

/**
 * Writes `entries` as a zip next to `output`, streamed to disk a slice at a time, and renames it there, so a failed
 * write leaves no half file; `progress` hears how far it got. An entry that is `source`'s own, unchanged, is copied as
 * the input zip holds it (the same compressed bytes); the others are compressed.
 */
export async function writePackage(
  entries: ReadonlyMap<string, Uint8Array>,
  output: string,
  progress: (message: string) => void = () => undefined,
  source?: WorkbookPackage,
): Promise<void> {
  const temporary = join(dirname(output), `.${basename(output)}.${process.pid}.tmp`);
  const fd = openSync(temporary, "w");
  let open = true;
  try {
    const failures: Error[] = []; // the zip's callback fills it; the first one is thrown
    const zip = new Zip((error, chunk) => {
      if (error) failures.push(error);
      else writeSync(fd, chunk);
    });
    const total = [...entries.values()].reduce((sum, data) => sum + data.length, 0);
    let written = 0;
    const report = (share: number): void => {
      written += share;
      progress(`workbook: writing ${output}, ${Math.round((100 * written) / Math.max(total, 1))} %`);
    };
    /** The entries written anew and parsed: found again in the file before the rename. */
    const checked = new Map<string, Uint8Array>();
    for (const [name, data] of entries) {
      // a new entry is deflated by zlib off this thread, a slice at a time (fflate's deflate in JavaScript took 20 s of
      // the 100,000-row book's write at load 12), while this thread parses it; an unchanged one is the input's own
      // compressed bytes
      const kept = source !== undefined && source.entries.get(name) === data ? source.stored.get(name) : undefined;
      const entry = kept ?? (await deflatedAndChecked(name, data, output, report, progress));
      if (kept === undefined) checked.set(name, data);
      const file = new StoredCopy(name, entry);
      zip.add(file);
      // a copied entry goes in slices of its compressed bytes, counted as its share of the whole
      const length = entry.data.length;
      for (let offset = 0; offset < length || offset === 0; offset += SLICE) {
        file.push(entry.data.subarray(offset, offset + SLICE), offset + SLICE >= length);
        if (kept !== undefined) report(Math.round((Math.min(SLICE, length - offset) * data.length) / Math.max(length, 1)));
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    zip.end();
    const [failure] = failures;
    if (failure !== undefined) throw failure;
    closeSync(fd);
    open = false;
    await readBack(temporary, output, checked);
    renameSync(temporary, output);
  } finally {
    if (open) closeSync(fd);
    rmSync(temporary, { force: true });
  }
}
