/** The package's copy keeps every unchanged entry as the input zip holds it: the same compressed bytes, method, CRC and time. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import { type StoredEntry, WorkbookFileError, WorkbookPackage, readBack, writePackage } from "../../src/xlsx/package";
import { withComment, withZip64End } from "./zip-edits";

const TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
/** The workbook part the root relationship names: a package without one is refused as no workbook. */
const WORKBOOK = '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>';
const MODIFIED = new Date(2024, 4, 6, 7, 8, 10);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "prices-package-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The entries of a zip file as stored (the package reader's view, checked against fflate's unzip below). */
function storedOf(path: string): ReadonlyMap<string, StoredEntry> {
  return WorkbookPackage.read(path).stored;
}

describe("writePackage", () => {
  it("copies an unchanged entry's compressed bytes, method and time as the input holds them, and compresses a changed one", async () => {
    const input = join(dir, "in.xlsx");
    const repeated = strToU8("<sst>".padEnd(50_000, "abc") + "</sst>");
    writeFileSync(
      input,
      zipSync({
        "[Content_Types].xml": [strToU8(TYPES), { level: 9, mtime: MODIFIED }],
        "_rels/.rels": [strToU8(ROOT_RELS), { level: 1, mtime: MODIFIED }],
        "xl/workbook.xml": [strToU8(WORKBOOK), { level: 9, mtime: MODIFIED }],
        // stored without compression, as some tools store media and macros
        "xl/media/image1.png": [new Uint8Array([137, 80, 78, 71, 1, 2, 3, 4, 5]), { level: 0, mtime: MODIFIED }],
        "xl/sharedStrings.xml": [repeated, { level: 9, mtime: MODIFIED }],
        "xl/worksheets/sheet1.xml": [strToU8("<worksheet/>"), { level: 9, mtime: MODIFIED }],
      }),
    );
    const pkg = WorkbookPackage.read(input);
    const entries = new Map(pkg.entries);
    entries.set("xl/worksheets/sheet1.xml", strToU8("<worksheet><sheetData/></worksheet>"));
    const output = join(dir, "out.xlsx");
    await writePackage(entries, output, undefined, pkg);

    const before = storedOf(input);
    const after = storedOf(output);
    for (const name of ["[Content_Types].xml", "_rels/.rels", "xl/media/image1.png", "xl/sharedStrings.xml"]) {
      expect({ name, ...after.get(name) }).toEqual({ name, ...before.get(name) });
    }
    expect(after.get("xl/media/image1.png")?.compression).toBe(0);
    expect(after.get("xl/worksheets/sheet1.xml")?.compression).toBe(8);
    expect(after.get("_rels/.rels")?.modified).toEqual(MODIFIED);
    // and what the copy holds is what it was given, in the same order
    const copied = unzipSync(new Uint8Array(readFileSync(output)));
    expect(Object.keys(copied)).toEqual([...entries.keys()]);
    for (const [name, data] of entries) expect(Buffer.from(copied[name] ?? new Uint8Array()).equals(Buffer.from(data))).toBe(true);
  });

  it("compresses every entry anew when it is given no source package", async () => {
    const input = join(dir, "in.xlsx");
    writeFileSync(input, zipSync({ "[Content_Types].xml": [strToU8(TYPES), { level: 0 }], "_rels/.rels": [strToU8(ROOT_RELS), { level: 0 }], "xl/workbook.xml": [strToU8(WORKBOOK), { level: 0 }] }));
    const pkg = WorkbookPackage.read(input);
    const output = join(dir, "out.xlsx");
    await writePackage(pkg.entries, output);
    expect(storedOf(output).get("_rels/.rels")?.compression).toBe(8);
  });
});

describe("writePackage's parse-back", () => {
  function input(): WorkbookPackage {
    const path = join(dir, "in.xlsx");
    writeFileSync(path, zipSync({ "[Content_Types].xml": strToU8(TYPES), "_rels/.rels": strToU8(ROOT_RELS), "xl/workbook.xml": strToU8("<workbook/>"), "xl/worksheets/sheet1.xml": strToU8("<worksheet/>") }));
    return WorkbookPackage.read(path);
  }

  it.each([
    ["a raw control character", "<worksheet><sheetData><row><c t=\"str\"><v>\u0007x</v></c></row></sheetData></worksheet>", /disallowed character/],
    ["an unbound prefix", "<x:worksheet><x:sheetData/></x:worksheet>", /unbound|prefix/i],
    ["an element left open", "<worksheet><sheetData></worksheet>", /not well-formed/],
  ])("writes nothing when a part written anew is not well-formed XML (%s), naming the part", async (_, xml, why) => {
    const pkg = input();
    const entries = new Map(pkg.entries);
    entries.set("xl/worksheets/sheet1.xml", strToU8(xml));
    const output = join(dir, "out.xlsx");
    const failure = await writePackage(entries, output, undefined, pkg).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkbookFileError);
    expect((failure as Error).message).toMatch(new RegExp(`^cannot write ${output}: xl/worksheets/sheet1\\.xml `));
    expect((failure as Error).message).toMatch(why);
    expect(existsSync(output)).toBe(false);
    expect(readdirSync(dir)).toEqual(["in.xlsx"]);
  });

  it("parses only what it wrote anew: an input part it copies is the input's, whatever it holds", async () => {
    const path = join(dir, "odd.xlsx");
    // a part no reader of this package parses (Excel would): copied as it is, never judged
    writeFileSync(path, zipSync({ "[Content_Types].xml": strToU8(TYPES), "_rels/.rels": strToU8(ROOT_RELS), "xl/workbook.xml": strToU8("<workbook/>"), "customXml/item1.xml": strToU8("<a>") }));
    const pkg = WorkbookPackage.read(path);
    await writePackage(pkg.entries, join(dir, "out.xlsx"), undefined, pkg);
    expect(existsSync(join(dir, "out.xlsx"))).toBe(true);
  });
});

describe("readBack: the parts written anew, found again in the file before its rename", () => {
  const sheet = strToU8("<worksheet><sheetData/></worksheet>");
  const failure = (path: string, parts: ReadonlyMap<string, Uint8Array>): Promise<unknown> =>
    readBack(path, "out.xlsx", parts).then(
      () => undefined,
      (error: unknown) => error,
    );

  it("passes a zip holding each part as it was checked, deflated or stored", async () => {
    const path = join(dir, "written.tmp");
    writeFileSync(path, zipSync({ "xl/worksheets/sheet1.xml": [sheet, { level: 6 }], "xl/workbook.xml": [strToU8(WORKBOOK), { level: 0 }] }));
    expect(await failure(path, new Map([["xl/worksheets/sheet1.xml", sheet], ["xl/workbook.xml", strToU8(WORKBOOK)]]))).toBeUndefined();
  });

  it.each([
    ["another content than the one checked", (path: string) => { writeFileSync(path, zipSync({ "xl/worksheets/sheet1.xml": strToU8("<worksheet><sheetData></sheetData></worksheet>") })); }, /xl\/worksheets\/sheet1\.xml (does not read back|.*CRC-32)/],
    ["no such entry", (path: string) => { writeFileSync(path, zipSync({ "xl/workbook.xml": strToU8(WORKBOOK) })); }, /xl\/worksheets\/sheet1\.xml is missing from the zip/],
    [
      "its compressed bytes damaged",
      (path: string) => {
        const bytes = Buffer.from(zipSync({ "xl/worksheets/sheet1.xml": [sheet, { level: 0 }] }));
        bytes[bytes.indexOf("sheetData")] = "S".charCodeAt(0);
        writeFileSync(path, bytes);
      },
      /xl\/worksheets\/sheet1\.xml/,
    ],
  ])("refuses a part with %s, naming it", async (_, write, why) => {
    const path = join(dir, "written.tmp");
    write(path);
    const error = await failure(path, new Map([["xl/worksheets/sheet1.xml", sheet]]));
    expect(error).toBeInstanceOf(WorkbookFileError);
    expect((error as Error).message).toMatch(/^cannot write out\.xlsx: /);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toMatch(/nothing was written \(the input is untouched\)$/);
  });
});

describe("WorkbookPackage.read's entries", () => {
  it("are fflate's unzipSync's: the same names, in the same order, with the same bytes, deflated ones inflated by zlib", () => {
    const large = strToU8(Array.from({ length: 20_000 }, (_, index) => `<c r="A${index}"><v>${(index * 7919) % 1000}</v></c>`).join(""));
    const zip = zipSync({
      "[Content_Types].xml": [strToU8(TYPES), { level: 9 }],
      "_rels/.rels": [strToU8(ROOT_RELS), { level: 0 }],
      "xl/workbook.xml": [strToU8(WORKBOOK), { level: 1 }],
      "xl/worksheets/sheet1.xml": [large, { level: 6 }],
      "xl/empty.xml": [new Uint8Array(0), { level: 6 }],
      // a name that reads as a number comes first among an object's keys: fflate's order, kept
      "7": [strToU8("seven"), { level: 6 }],
      "xl/tëst.xml": [strToU8("<a/>"), { level: 6 }],
    });
    writeFileSync(join(dir, "mixed.xlsx"), zip);
    const hex = (entries: Iterable<[string, Uint8Array]>) => [...entries].map(([name, bytes]) => [name, Buffer.from(bytes).toString("hex")]);
    expect(hex(WorkbookPackage.read(join(dir, "mixed.xlsx")).entries)).toEqual(hex(Object.entries(unzipSync(zip))));
  });

  it("name a deflated entry that does not inflate a damaged zip", () => {
    const zip = Buffer.from(zipSync({ "[Content_Types].xml": [strToU8(TYPES), { level: 9 }], "_rels/.rels": [strToU8(ROOT_RELS), { level: 9 }], "xl/workbook.xml": [strToU8(WORKBOOK), { level: 9 }] }));
    // the first entry's first deflate block header: a reserved block type
    zip[30 + zip.readUInt16LE(26) + zip.readUInt16LE(28)] = 0xff;
    writeFileSync(join(dir, "block.xlsx"), zip);
    expect(() => WorkbookPackage.read(join(dir, "block.xlsx"))).toThrow(/block\.xlsx is a damaged zip \(truncated or corrupt\): /);
  });
});

describe("WorkbookPackage.read's CRC check", () => {
  it("refuses an entry whose content or local header disagrees with its CRC-32 (fflate reads either without a word)", () => {
    const good = Buffer.from(zipSync({ "[Content_Types].xml": [strToU8(TYPES), { level: 0 }], "_rels/.rels": [strToU8(ROOT_RELS), { level: 0 }], "xl/workbook.xml": [strToU8(WORKBOOK), { level: 0 }] }));
    const content = Buffer.from(good);
    content[content.indexOf("package/2006/content-types")] = "P".charCodeAt(0);
    writeFileSync(join(dir, "content.xlsx"), content);
    expect(() => WorkbookPackage.read(join(dir, "content.xlsx"))).toThrow(/content\.xlsx is a damaged zip \(corrupt\): \[Content_Types\]\.xml does not match its CRC-32$/);
    const header = Buffer.from(good);
    // the first local header's CRC field (offset 14)
    header[14] = (header[14] ?? 0) ^ 0xff;
    writeFileSync(join(dir, "header.xlsx"), header);
    expect(() => WorkbookPackage.read(join(dir, "header.xlsx"))).toThrow(/local header gives another CRC-32 than the directory/);
  });
});

describe("WorkbookPackage.read's end of central directory (zip-directory.ts, for both the entries and the stored copies)", () => {
  function workbook(): Buffer {
    return Buffer.from(zipSync({ "[Content_Types].xml": [strToU8(TYPES), { level: 9 }], "_rels/.rels": [strToU8(ROOT_RELS), { level: 0 }], "xl/workbook.xml": [strToU8(WORKBOOK), { level: 6 }] }));
  }
  const hex = (entries: Iterable<[string, Uint8Array]>) => [...entries].map(([name, bytes]) => [name, Buffer.from(bytes).toString("hex")]);

  it("reads a zip whose comment holds an end record's signature as the same zip without it (fflate alone took the signature for the record)", () => {
    const zip = workbook();
    const comment = Buffer.from("copied from PK\x05\x06 the archive tool's notes, which are long enough");
    writeFileSync(join(dir, "plain.xlsx"), zip);
    writeFileSync(join(dir, "commented.xlsx"), withComment(zip, comment));
    const plain = WorkbookPackage.read(join(dir, "plain.xlsx"));
    const read = WorkbookPackage.read(join(dir, "commented.xlsx"));
    expect(hex(read.entries)).toEqual(hex(plain.entries));
    expect([...read.stored.keys()]).toEqual(["[Content_Types].xml", "_rels/.rels", "xl/workbook.xml"]);
    expect(hex([...read.stored].map(([name, entry]) => [name, entry.data]))).toEqual(hex([...plain.stored].map(([name, entry]) => [name, entry.data])));
  });

  it("keeps the stored bytes of a zip whose directory a zip64 end record locates (they were compressed anew)", () => {
    const bytes = withZip64End(workbook());
    writeFileSync(join(dir, "zip64.xlsx"), bytes);
    const read = WorkbookPackage.read(join(dir, "zip64.xlsx"));
    expect(hex(read.entries)).toEqual(hex(Object.entries(unzipSync(bytes))));
    expect([...read.stored.keys()]).toEqual(["[Content_Types].xml", "_rels/.rels", "xl/workbook.xml"]);
  });

  it("keeps the stored bytes of an entry whose name has bytes 0x80-0x9f and no UTF-8 flag, named as fflate names it", () => {
    const zip = Buffer.from(zipSync({ "[Content_Types].xml": [strToU8(TYPES), { level: 0 }], "_rels/.rels": [strToU8(ROOT_RELS), { level: 0 }], "xl/workbook.xml": [strToU8(WORKBOOK), { level: 0 }], "xl/media/aX.bin": [new Uint8Array([7]), { level: 0 }] }));
    for (let at = zip.indexOf("aX.bin"); at >= 0; at = zip.indexOf("aX.bin", at + 1)) zip[at + 1] = 0x80;
    writeFileSync(join(dir, "latin1.xlsx"), zip);
    expect([...WorkbookPackage.read(join(dir, "latin1.xlsx")).stored.keys()]).toContain("xl/media/a\u0080.bin");
  });

  it("calls an empty zip (its end record alone) a zip but no workbook", () => {
    writeFileSync(join(dir, "empty.xlsx"), zipSync({}));
    expect(() => WorkbookPackage.read(join(dir, "empty.xlsx"))).toThrow(/empty\.xlsx is a zip but not a workbook/);
  });
});

