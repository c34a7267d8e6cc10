/**
 * LibreOffice Calc's own recalculation of a workbook: its profile says "always recalculate on load" (OOXMLRecalcMode
 * 0), so the copy it saves holds LibreOffice's values, not the file's; read back from the saved sheet as typed values.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

export type RecalculatedValue = number | string | boolean | { readonly error: string } | null;

const ALWAYS_RECALCULATE = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;

const CELL = /<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[name] ?? "");
}

/** A formula cell's cached value as LibreOffice wrote it (`t="b"`, `"e"`, `"str"` or a number); other cells are skipped. */
function formulaValue(attributes: string, body: string): RecalculatedValue | undefined {
  if (!body.includes("<f")) return undefined;
  const type = /\bt="([a-z]+)"/.exec(attributes)?.[1] ?? "n";
  const raw = /<v>([\s\S]*?)<\/v>|<v\/>/.exec(body);
  const text = unescapeXml(raw?.[1] ?? "");
  if (type === "b") return text === "1";
  if (type === "e") return { error: text };
  if (type === "str" || type === "inlineStr") return text;
  return raw ? Number(text) : null;
}

/** Every formula cell of the first sheet of `workbook` after LibreOffice recalculated it on load, by A1 address. */
export function libreOfficeRecalculated(workbook: string): Map<string, RecalculatedValue> {
  const dir = mkdtempSync(join(tmpdir(), "prices-recalc-"));
  try {
    const profile = join(dir, "profile");
    mkdirSync(join(profile, "user"), { recursive: true });
    writeFileSync(join(profile, "user", "registrymodifications.xcu"), ALWAYS_RECALCULATE);
    const out = join(dir, "out");
    execFileSync("soffice", [`-env:UserInstallation=file://${profile}`, "--headless", "--convert-to", "xlsx", "--outdir", out, workbook], {
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 180_000,
    });
    // exceljs drops a cached 0, FALSE or "" of a formula, so the sheet part is read as LibreOffice wrote it
    const xml = execFileSync("unzip", ["-p", join(out, basename(workbook)), "xl/worksheets/sheet1.xml"], { maxBuffer: 64 * 1024 * 1024 }).toString("utf8");
    const values = new Map<string, RecalculatedValue>();
    for (const [, address, attributes, body] of xml.matchAll(CELL)) {
      const value = formulaValue(attributes ?? "", body ?? "");
      if (address !== undefined && value !== undefined) values.set(address, value);
    }
    return values;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
