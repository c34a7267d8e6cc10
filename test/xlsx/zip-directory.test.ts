/** The one central directory walker: which end record it takes, and the entries it reads, as fflate reads them. */
import { strToU8, unzipSync, zipSync } from "fflate";
import { directoryEntries, endOfDirectory } from "../../src/xlsx/zip-directory";
import { withComment, withZip64End } from "./zip-edits";

const END_SIGNATURE = [0x50, 0x4b, 0x05, 0x06];

function sample(): Buffer {
  return Buffer.from(zipSync({ "[Content_Types].xml": [strToU8("<Types/>"), { level: 6 }], "xl/media/a.bin": [new Uint8Array([1, 2, 3]), { level: 0 }] }));
}

const names = (bytes: Uint8Array): string[] | undefined => directoryEntries(bytes)?.map((entry) => entry.name);

describe("endOfDirectory", () => {
  it("finds the record at the end, and before a comment", () => {
    const zip = sample();
    expect(endOfDirectory(zip)).toBe(zip.length - 22);
    expect(endOfDirectory(withComment(zip, Buffer.from("saved by a tool")))).toBe(zip.length - 22);
  });

  it("takes the record whose comment ends the file, not a signature inside that comment (the package reader took the later one)", () => {
    const zip = sample();
    const comment = Buffer.concat([Buffer.from("a zip's end starts "), Buffer.from(END_SIGNATURE), Buffer.from(" and is 22 bytes long, or more")]);
    const bytes = withComment(zip, comment);
    expect(endOfDirectory(bytes)).toBe(zip.length - 22);
    // fflate, given it all, takes the signature in the comment for the record and reads no entry of the zip
    expect(Object.keys(unzipSync(bytes))).not.toContain("[Content_Types].xml");
    expect(names(bytes)).toEqual(Object.keys(unzipSync(zip)));
  });

  it("looks back as far as the longest comment (65,535 bytes), and no further", () => {
    const zip = sample();
    const longest = withComment(zip, Buffer.alloc(65_535, 0x20));
    expect(endOfDirectory(longest)).toBe(zip.length - 22);
    // one byte more after it: the record could only be 65,536 comment bytes away, which its 16-bit length cannot say
    expect(endOfDirectory(Buffer.concat([longest, Buffer.from(" ")]))).toBeUndefined();
  });

  it("takes the last signature when none has a comment that ends the file (bytes after the record), as fflate does", () => {
    const zip = sample();
    expect(endOfDirectory(Buffer.concat([zip, Buffer.alloc(100)]))).toBe(zip.length - 22);
  });

  it("finds an empty zip's record at the file's first byte (the native inflate's search stopped short of it)", () => {
    const empty = Buffer.from(zipSync({}));
    expect(empty.length).toBe(22);
    expect(endOfDirectory(empty)).toBe(0);
    expect(directoryEntries(empty)).toEqual([]);
  });

  it("finds none in bytes that are no zip, or too short for a record", () => {
    expect(endOfDirectory(Buffer.alloc(1000, 0x41))).toBeUndefined();
    expect(endOfDirectory(Buffer.from(END_SIGNATURE))).toBeUndefined();
    expect(directoryEntries(Buffer.alloc(1000, 0x41))).toBeUndefined();
  });
});

describe("directoryEntries", () => {
  it("reads each entry's method, sizes, CRC and compressed bytes, in the zip's order", () => {
    const zip = sample();
    const [types, media] = directoryEntries(zip) ?? [];
    expect(types).toMatchObject({ name: "[Content_Types].xml", compression: 8, size: 8, zip64: false });
    expect(types?.localCrc).toBe(types?.crc);
    expect(media).toMatchObject({ name: "xl/media/a.bin", compression: 0, size: 3, compressedSize: 3 });
    expect([...(media?.data ?? [])]).toEqual([1, 2, 3]);
  });

  it("decodes a name without the UTF-8 flag byte for byte, as fflate does (0x80 is U+0080; the package reader made it €)", () => {
    const zip = Buffer.from(zipSync({ "xl/aX.bin": [new Uint8Array([7]), { level: 0 }] }));
    for (let at = zip.indexOf("aX"); at >= 0; at = zip.indexOf("aX", at + 1)) zip[at + 1] = 0x80;
    expect(names(zip)).toEqual(["xl/a\u0080.bin"]);
    expect(names(zip)).toEqual(Object.keys(unzipSync(zip)));
  });

  it("reads the count and offset from a zip64 end record, as fflate does", () => {
    const bytes = withZip64End(sample());
    expect(names(bytes)).toEqual(Object.keys(unzipSync(bytes)));
    expect(names(bytes)).toEqual(["[Content_Types].xml", "xl/media/a.bin"]);
  });

  it("follows no directory whose record says zip64 without a zip64 record, nor a split archive's", () => {
    const zip = sample();
    const end = zip.length - 22;
    const saturated = Buffer.from(zip);
    saturated.writeUInt32LE(0xffffffff, end + 16);
    expect(directoryEntries(saturated)).toBeUndefined();
    const split = Buffer.from(zip);
    split.writeUInt16LE(1, end + 8);
    expect(directoryEntries(split)).toBeUndefined();
  });

  it("follows no directory an entry of which lies outside the file or lacks its signature", () => {
    const zip = sample();
    const end = zip.length - 22;
    const outside = Buffer.from(zip);
    outside.writeUInt32LE(zip.length - 10, end + 16);
    expect(directoryEntries(outside)).toBeUndefined();
    const unsigned = Buffer.from(zip);
    unsigned[zip.readUInt32LE(end + 16)] = 0;
    expect(directoryEntries(unsigned)).toBeUndefined();
  });

  it("gives no local CRC nor data for an entry whose local header is not where the directory says", () => {
    const zip = sample();
    // the first local header's signature
    zip[0] = 0;
    const [types, media] = directoryEntries(zip) ?? [];
    expect([types?.localCrc, types?.data]).toEqual([undefined, undefined]);
    expect(media?.data).toBeDefined();
  });
});
