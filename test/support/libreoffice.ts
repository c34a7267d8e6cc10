/** LibreOffice Calc (Debian's libreoffice-calc-nogui) reading a workbook headlessly: every sheet converted to CSV, read back as rows of text. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";

/** Comma-separated, double quotes, UTF-8 (76), from line 1; token 9 "save cell contents as shown"; token 12 = -1 writes every sheet to `<file>-<sheet>.csv`. */
const csvFilter = (asShown: boolean): string => `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,${asShown},false,false,-1`;

/** Splits one CSV line as LibreOffice writes it (quotes doubled inside quoted fields). */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        current += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(current);
      current = "";
    } else current += char;
  }
  fields.push(current);
  return fields;
}

/** Each sheet of `workbook` as LibreOffice reads it, by sheet name: numbers as stored, or `asShown` through their number formats. */
export function libreOfficeSheets(workbook: string, options: { asShown?: boolean } = {}): Map<string, string[][]> {
  const dir = mkdtempSync(join(tmpdir(), "prices-libreoffice-"));
  try {
    const profile = join(dir, "profile");
    const out = join(dir, "csv");
    execFileSync("soffice", [`-env:UserInstallation=file://${profile}`, "--headless", "--convert-to", csvFilter(options.asShown ?? false), "--outdir", out, workbook], {
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 120_000,
    });
    const stem = basename(workbook, extname(workbook));
    const sheets = new Map<string, string[][]>();
    for (const file of readdirSync(out)) {
      const sheet = file.slice(stem.length + 1, -".csv".length);
      const lines = readFileSync(join(out, file), "utf8").split(/\r?\n/).filter((line) => line !== "");
      sheets.set(sheet, lines.map(splitCsvLine));
    }
    return sheets;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text LibreOffice shows at an A1 address of one sheet's rows ("" for an empty cell). */
export function shown(rows: readonly (readonly string[])[] | undefined, address: string): string {
  const match = /^([A-Z]+)(\d+)$/.exec(address);
  if (!match || !rows) return "";
  const col = [...(match[1] ?? "")].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  return rows[Number(match[2]) - 1]?.[col] ?? "";
}
