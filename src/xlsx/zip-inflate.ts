/**
 * A zip's entries read as fflate's unzipSync reads them (names, order, bytes, and what it refuses), but every
 * deflated entry inflated by Node's zlib, natively, instead of fflate's JavaScript inflate.
 */
import { inflateRawSync } from "node:zlib";
import { unzipSync } from "fflate";

const END_OF_DIRECTORY = 0x06054b50;
/** The zip64 end-of-directory locator, which fflate reads the directory from: such a zip is left to fflate. */
const ZIP64_LOCATOR = 0x07064b50;

/** A central directory entry as fflate's unzipSync walks it: its method, sizes and where its data starts. */
interface DirectoryEntry {
  readonly compression: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly start: number;
}

/**
 * The entries of `bytes` by name, in the zip's order, as fflate's unzipSync gives them, but a deflated entry is
 * inflated by Node's zlib (native: the model's 876 KB sheet in a few ms, fflate's JavaScript inflate took ~50 ms).
 * fflate still walks the zip and reads every other entry, and throws as before for a zip it cannot read; an entry
 * this reader does not find in the directory as fflate does (zip64) is left to fflate too.
 */
export function unzipped(bytes: Uint8Array): Record<string, Uint8Array> {
  const directory = directoryEntries(bytes);
  const order: { name: string; entry: DirectoryEntry | undefined }[] = [];
  const read = unzipSync(bytes, {
    filter: (file) => {
      const entry = directory?.[order.length];
      const native = entry !== undefined && file.compression === 8 && entry.compression === 8 && entry.compressedSize === file.size && entry.size === file.originalSize;
      order.push({ name: file.name, entry: native ? entry : undefined });
      return !native;
    },
  });
  // filled in the zip's order, as fflate fills its own (a name given twice keeps its first place and its last content)
  const files: Record<string, Uint8Array> = {};
  for (const { name, entry } of order) {
    if (entry === undefined) {
      const content = read[name];
      if (content !== undefined) files[name] = content;
      continue;
    }
    const inflated = inflateRawSync(bytes.subarray(entry.start, entry.start + entry.compressedSize));
    // a view of its own bytes (a small result may share Node's buffer pool)
    files[name] = inflated.byteOffset === 0 && inflated.buffer.byteLength === inflated.length ? new Uint8Array(inflated.buffer, 0, inflated.length) : new Uint8Array(inflated);
  }
  return files;
}

/** The central directory read as fflate's unzipSync reads it (not zip64), or undefined when it is not one this reader follows. */
function directoryEntries(bytes: Uint8Array): DirectoryEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end > 0 && bytes.length - end <= 65_558 && view.getUint32(end, true) !== END_OF_DIRECTORY) end -= 1;
  if (end <= 0 || view.getUint32(end, true) !== END_OF_DIRECTORY) return undefined;
  // a zip64 end locator before it: fflate reads its count and offset from there
  if (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR) return undefined;
  const count = view.getUint16(end + 8, true);
  let at = view.getUint32(end + 16, true);
  const entries: DirectoryEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    if (local + 30 > bytes.length) return undefined;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const compressedSize = view.getUint32(at + 20, true);
    if (start + compressedSize > bytes.length) return undefined;
    entries.push({ compression: view.getUint16(at + 10, true), compressedSize, size: view.getUint32(at + 24, true), start });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}
