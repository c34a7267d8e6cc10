/**
 * Bad input through the real command line (`tsx scripts/workbook.ts`, and `npm run workbook` from the user's own
 * folder): each file that is no workbook the runner can refresh is named for what it is, in one line on stderr, exit
 * code 2, nothing on stdout, the input untouched and no copy (nor a half one) written. The runner stops before it
 * builds, serves or starts anything, so these runs need no browser.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { strToU8, zipSync } from "fflate";

jest.setTimeout(120_000);

const ROOT = resolve(__dirname, "../..");
const FIXTURES = join(ROOT, "test/xlsx/fixtures");
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const rels = (entries: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;

/** A one-sheet workbook package, its parts as given (`level` 0 stores them uncompressed, so a byte can be changed in place). */
function workbookZip(
  level: 0 | 6 = 6,
  sheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1"><v>1234</v></c></row></sheetData></worksheet>`,
  book = `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets></workbook>`,
): Uint8Array {
  const parts = {
    "[Content_Types].xml": `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
    "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/>`),
    "xl/workbook.xml": book,
    "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>`),
    "xl/worksheets/sheet1.xml": sheet,
  };
  return zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, [strToU8(text), { level }]])));
}

/** The workbook above with one byte of its sheet's text changed where it is stored: the zip reads, the content fails its CRC-32. */
function crcDamaged(): Buffer {
  const bytes = Buffer.from(workbookZip(0));
  const at = bytes.indexOf("<v>1234</v>") + 3;
  bytes[at] = "9".charCodeAt(0);
  return bytes;
}

/** A Word document's package: a zip with content types and relationships, but its main part is no workbook. */
function docx(): Uint8Array {
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/>`)),
    "word/document.xml": strToU8('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>'),
  });
}

/** An OpenDocument spreadsheet's package as LibreOffice starts it: the `mimetype` entry first, stored. */
function ods(): Uint8Array {
  return zipSync({
    mimetype: [strToU8("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
    "content.xml": strToU8('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>'),
  });
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The runner as a user starts it without npm: tsx on scripts/workbook.ts, in the project's folder. */
function runner(args: readonly string[]): Run {
  const env = { ...process.env };
  delete env.npm_lifecycle_event;
  delete env.INIT_CWD;
  const result = spawnSync(process.execPath, [join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/workbook.ts", ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 100_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const digest = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "prices-bad-input-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the runner on `input` (copied into a folder of its own) and checks what every refusal must hold; returns its one line. */
function refused(name: string, content: Uint8Array | string | undefined, out: string, options: readonly string[] = []): string {
  const folder = mkdtempSync(join(dir, "case-"));
  const input = join(folder, name);
  if (typeof content === "string") copyFileSync(content, input);
  else if (content !== undefined) writeFileSync(input, content);
  const before = existsSync(input) ? digest(input) : undefined;
  const result = runner([input, "--out", join(folder, out), ...options]);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  if (before !== undefined) expect(digest(input)).toBe(before);
  // no copy, and no half copy beside it
  expect(readdirSync(folder).filter((file) => file !== name)).toEqual([]);
  return lines[0] ?? "";
}

describe("the runner refuses a file it cannot refresh, saying what it is", () => {
  it.each([
    ["an empty file", "empty.xlsx", new Uint8Array(), /^workbook: \S+empty\.xlsx is empty \(0 bytes\): not a workbook$/],
    ["a CSV file renamed .xlsx", "prices.xlsx", "Symbol,Mid\nMB-AL-0004,2431.5\n", /^workbook: \S+prices\.xlsx is a text file \(CSV or other text\), not an \.xlsx: open it in Excel and save it as \.xlsx, then run again$/],
    ["a zip whose content fails its CRC-32", "crc.xlsx", crcDamaged(), /^workbook: \S+crc\.xlsx is a damaged zip \(corrupt\): xl\/worksheets\/sheet1\.xml does not match its CRC-32$/],
    ["a truncated zip", "truncated.xlsx", workbookZip().subarray(0, 400), /^workbook: \S+truncated\.xlsx is a damaged zip \(truncated or corrupt\)/],
    ["a zip that is not a workbook", "notes.xlsx", zipSync({ "notes.txt": strToU8("not a workbook") }), /^workbook: \S+notes\.xlsx is a zip but not a workbook/],
    ["a Word document renamed .xlsx", "letter.xlsx", docx(), /^workbook: \S+letter\.xlsx is a Word document \(\.docx\), not a workbook$/],
    ["an OpenDocument spreadsheet renamed .xlsx", "sheet.xlsx", ods(), /^workbook: \S+sheet\.xlsx is an OpenDocument spreadsheet \(\.ods\)/],
  ])("%s", (_, name, content, message) => {
    expect(refused(name, typeof content === "string" ? strToU8(content) : content, "copy.xlsx")).toMatch(message);
  });

  // the workbook part is read with the input's check, before the first line: one line, with --freeze too (exit 2, not 1)
  it.each([[[]], [["--freeze"]]])("a workbook part that is not well-formed, options %j", (options: string[]) => {
    const broken = workbookZip(6, undefined, `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets>`);
    expect(refused("broken.xlsx", broken, "copy.xlsx", options)).toMatch(/^workbook: \S+broken\.xlsx is a damaged workbook: /);
  });

  it("an encrypted workbook (a password to open), as Excel writes it", () => {
    expect(refused("locked.xlsx", join(FIXTURES, "encrypted-agile.xlsx"), "copy.xlsx")).toMatch(/^workbook: \S+locked\.xlsx is encrypted \(a password to open\): remove the password in Excel/);
  });

  it("an Excel 97-2003 .xls, with --out x.xls too: open it in Excel and save it as .xlsx (not a word about --out's name)", () => {
    const message = /^workbook: \S+model\.xls is an Excel 97-2003 workbook \(\.xls\): open it in Excel and save it as \.xlsx \(Excel Workbook\), then run again$/;
    expect(refused("model.xls", join(FIXTURES, "excel-97-2003.xls"), "copy.xls")).toMatch(message);
    expect(refused("model.xls", join(FIXTURES, "excel-97-2003.xls"), "copy.xlsx")).toMatch(message);
  });

  it("a missing file, and a folder", () => {
    expect(refused("missing.xlsx", undefined, "copy.xlsx")).toMatch(/^workbook: \S+missing\.xlsx does not exist$/);
    const folder = join(dir, "folder.xlsx");
    mkdirSync(folder);
    const result = runner([folder, "--out", join(dir, "from-folder.xlsx")]);
    expect([result.status, result.stderr.trim()]).toEqual([2, `workbook: ${folder} is a folder, not a workbook file`]);
  });
});

it("reads a relative path from the folder `npm run workbook` was typed in, not the project's", () => {
  const folder = mkdtempSync(join(dir, "typed-in-"));
  writeFileSync(join(folder, "empty.xlsx"), new Uint8Array());
  const result = spawnSync("npm", ["--prefix", ROOT, "run", "workbook", "--", "empty.xlsx", "--out", "copy.xlsx"], { cwd: folder, encoding: "utf8", timeout: 100_000 });
  expect(result.status).toBe(2);
  // npm adds its own error summary (JSON, .npmrc) after the runner's line
  expect(result.stderr).toContain(`workbook: ${join(folder, "empty.xlsx")} is empty (0 bytes): not a workbook\n`);
  expect(readdirSync(folder)).toEqual(["empty.xlsx"]);
});
