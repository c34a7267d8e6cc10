/**
 * A zip's entries read as fflate's unzipSync reads them (names, order, bytes, and what it refuses), but every
 * deflated entry inflated by Node's zlib, natively, instead of fflate's JavaScript inflate.
 */
import { inflateRawSync } from "node:zlib";
import { unzipSync } from "fflate";
import { type DirectoryEntry, END_RECORD_LENGTH, directoryEntries, endOfDirectory } from "./zip-directory";

/**
 * The entries of `bytes` by name, in the zip's order, as fflate's unzipSync gives them, but a deflated entry is
 * inflated by Node's zlib (native: the model's 876 KB sheet in a few ms, fflate's JavaScript inflate took ~50 ms).
 * fflate still walks the zip and reads every other entry, and throws as before for a zip it cannot read; an entry
 * zip-directory.ts does not find as fflate does (its sizes in a zip64 field) is left to fflate too.
 */
export function unzipped(bytes: Uint8Array): Record<string, Uint8Array> {
  const end = endOfDirectory(bytes);
  const directory = directoryEntries(bytes, end);
  const order: { name: string; entry: DirectoryEntry | undefined }[] = [];
  // fflate takes the last signature for the end record: cut after the one found, it reads that one, not one in its comment
  const read = unzipSync(end === undefined ? bytes : bytes.subarray(0, end + END_RECORD_LENGTH), {
    filter: (file) => {
      const entry = directory?.[order.length];
      const native = entry?.data !== undefined && !entry.zip64 && file.compression === 8 && entry.compression === 8 && entry.compressedSize === file.size && entry.size === file.originalSize;
      order.push({ name: file.name, entry: native ? entry : undefined });
      return !native;
    },
  });
  // filled in the zip's order, as fflate fills its own (a name given twice keeps its first place and its last content)
  const files: Record<string, Uint8Array> = {};
  for (const { name, entry } of order) {
    if (entry?.data === undefined) {
      const content = read[name];
      if (content !== undefined) files[name] = content;
      continue;
    }
    const inflated = inflateRawSync(entry.data);
    // a view of its own bytes (a small result may share Node's buffer pool)
    files[name] = inflated.byteOffset === 0 && inflated.buffer.byteLength === inflated.length ? new Uint8Array(inflated.buffer, 0, inflated.length) : new Uint8Array(inflated);
  }
  return files;
}
