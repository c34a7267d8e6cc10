/**
 * A zip's central directory, walked once for its two readers: the native inflate (zip-inflate.ts) and the package's
 * stored entries (package.ts). Fields as APPNOTE 4.3.12 and 4.3.16 place them; names decoded as fflate decodes them.
 */
import { strFromU8 } from "fflate";

const END_OF_DIRECTORY = 0x06054b50;
/** The end record's fixed part, before its comment. */
export const END_RECORD_LENGTH = 22;
/** APPNOTE 4.3.16: the comment's length is a 16-bit field, so the end record lies within the last 65,535 + 22 bytes. */
const LONGEST_COMMENT = 0xffff;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** A size or offset held in a zip64 extra field instead. */
const ZIP64 = 0xffffffff;

/** A central directory entry and what its local header says. */
export interface DirectoryEntry<B extends ArrayBufferLike = ArrayBufferLike> {
  readonly name: string;
  /** APPNOTE 4.4.4: bit 0 encrypted, bit 3 sizes and CRC in a data descriptor, bit 11 a UTF-8 name. */
  readonly flags: number;
  /** APPNOTE 4.4.5: 0 stored, 8 deflated. */
  readonly compression: number;
  readonly crc: number;
  readonly compressedSize: number;
  /** Uncompressed size. */
  readonly size: number;
  /** MS-DOS date and time fields. */
  readonly date: number;
  readonly time: number;
  /** A size or the offset is in a zip64 extra field, which this walker does not read: the fields above do not hold it. */
  readonly zip64: boolean;
  /** The CRC-32 the local header repeats; undefined when no local header stands where the directory points. */
  readonly localCrc: number | undefined;
  /** The compressed bytes after the local header; undefined without a local header or when they run past the end. */
  readonly data: Uint8Array<B> | undefined;
}

/**
 * Where the end-of-central-directory record starts, or undefined when the last 65,535 + 22 bytes hold none: searching
 * back, the first whose comment ends where the file does (a signature inside that comment is text, not the record);
 * failing that, the first signature, as fflate and older readers take it, so a file with bytes after its record still reads.
 */
export function endOfDirectory(bytes: Uint8Array): number | undefined {
  const view = viewOf(bytes);
  let first: number | undefined;
  for (let at = bytes.length - END_RECORD_LENGTH; at >= Math.max(0, bytes.length - END_RECORD_LENGTH - LONGEST_COMMENT); at -= 1) {
    if (view.getUint32(at, true) !== END_OF_DIRECTORY) continue;
    if (at + END_RECORD_LENGTH + view.getUint16(at + 20, true) === bytes.length) return at;
    first ??= at;
  }
  return first;
}

/**
 * The entries of the central directory the end record at `end` points to, in its order (the zip64 end record's count
 * and offset when it has one, as fflate reads them); undefined when there is no directory this walker can follow: no end
 * record, a split archive, saturated fields without a zip64 record, an entry out of the file or without its signature.
 */
export function directoryEntries<B extends ArrayBufferLike>(bytes: Uint8Array<B>, end: number | undefined = endOfDirectory(bytes)): DirectoryEntry<B>[] | undefined {
  if (end === undefined) return undefined;
  const view = viewOf(bytes);
  const location = directoryLocation(view, end);
  if (location === undefined) return undefined;
  let at = location.offset;
  const entries: DirectoryEntry<B>[] = [];
  for (let index = 0; index < location.count; index += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) return undefined;
    const flags = view.getUint16(at + 8, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const header = local + 30 <= bytes.length && view.getUint32(local, true) === LOCAL_HEADER;
    const start = header ? local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true) : undefined;
    entries.push({
      name: strFromU8(bytes.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) === 0),
      flags,
      compression: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize,
      size,
      date: view.getUint16(at + 14, true),
      time: view.getUint16(at + 12, true),
      zip64: compressedSize === ZIP64 || size === ZIP64 || local === ZIP64,
      localCrc: header ? view.getUint32(local + 14, true) : undefined,
      data: start !== undefined && start + compressedSize <= bytes.length ? bytes.subarray(start, start + compressedSize) : undefined,
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** How many entries the directory holds and where it starts, from the zip64 end record when a locator precedes `end`. */
function directoryLocation(view: DataView, end: number): { count: number; offset: number } | undefined {
  const count = view.getUint16(end + 10, true);
  // entries on this disk against entries in all: a split archive, which no reader here follows
  if (view.getUint16(end + 8, true) !== count) return undefined;
  if (count === 0) return { count, offset: 0 };
  const zip64End = end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR ? Number(view.getBigUint64(end - 12, true)) : undefined;
  if (zip64End !== undefined && zip64End + 56 <= end && view.getUint32(zip64End, true) === ZIP64_END) {
    return { count: Number(view.getBigUint64(zip64End + 32, true)), offset: Number(view.getBigUint64(zip64End + 48, true)) };
  }
  const offset = view.getUint32(end + 16, true);
  return count === 0xffff || offset === ZIP64 ? undefined : { count, offset };
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
