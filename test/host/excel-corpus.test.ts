/**
 * The engine against Excel's own answers: every workbook in test/host/excel-corpus/ (public, saved by Excel, sources in
 * its README), every formula evaluated (not only a price cone) and compared with the value Excel saved. A formula
 * either agrees, or is left for Excel with why; the ones the engine still gets wrong are listed one by one in
 * known-disagreements.json, and any other disagreement (or a listed one that now agrees) fails.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CORPUS, type FileComparison, compareFile, familyOf, leftReason, sameAsExcel } from "./excel-corpus";

const FILES = readdirSync(CORPUS).filter((file) => file.endsWith(".xlsx")).sort();

interface KnownDisagreement {
  readonly file: string;
  readonly cell: string;
  readonly why: string;
}

const KNOWN = JSON.parse(readFileSync(join(CORPUS, "known-disagreements.json"), "utf8")) as KnownDisagreement[];

describe("Excel-written public workbooks", () => {
  const compared: FileComparison[] = [];

  beforeAll(async () => {
    for (const file of FILES) compared.push(await compareFile(file));
  });

  it("holds at least 20 files and 5,000 formulas, every one saved by Excel", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(20);
    expect(compared.reduce((sum, file) => sum + file.formulas, 0)).toBeGreaterThanOrEqual(5_000);
    expect(compared.filter((file) => !/^(Microsoft (Macintosh )?Excel( Online)?|Excel Android)$/.test(file.application)).map((file) => `${file.file}: ${file.application}`)).toEqual([]);
  });

  it("gives Excel's saved value for every formula it evaluates, but the disagreements listed with their cause", () => {
    const wrong = compared.flatMap((file) => file.wrong.map((cell) => ({ file: file.file, cell: cell.cell, text: `${file.file} ${cell.cell} =${cell.formula}: Excel ${JSON.stringify(cell.excel)}, engine ${JSON.stringify(cell.engine)}` })));
    const known = new Set(KNOWN.map((entry) => `${entry.file} ${entry.cell}`));
    const found = new Set(wrong.map((entry) => `${entry.file} ${entry.cell}`));
    // a new disagreement is a silently wrong value; a listed one that agrees now leaves the list
    expect(wrong.filter((entry) => !known.has(`${entry.file} ${entry.cell}`)).map((entry) => entry.text)).toEqual([]);
    expect(KNOWN.filter((entry) => !found.has(`${entry.file} ${entry.cell}`)).map((entry) => `${entry.file} ${entry.cell} agrees now or is left: take it off known-disagreements.json`)).toEqual([]);
    expect(KNOWN.filter((entry) => entry.why.trim() === "")).toEqual([]);
  });

  it("gives every formula left for Excel a reason, and prints the figures docs/formula-engine.md reports", () => {
    expect(compared.flatMap((file) => file.left).filter((cell) => cell.why.trim() === "")).toEqual([]);
    const families = new Map<string, { formulas: number; agree: number; left: number; moment: number; wrong: number }>();
    for (const file of compared) {
      const family = families.get(familyOf(file.file)) ?? { formulas: 0, agree: 0, left: 0, moment: 0, wrong: 0 };
      families.set(familyOf(file.file), { formulas: family.formulas + file.formulas, agree: family.agree + file.agree, left: family.left + file.left.length, moment: family.moment + file.ofTheMoment + file.unsaved, wrong: family.wrong + file.wrong.length });
    }
    const reasons = new Map<string, number>();
    for (const cell of compared.flatMap((file) => file.left)) reasons.set(leftReason(cell.why), (reasons.get(leftReason(cell.why)) ?? 0) + 1);
    const lines = [...families].sort().map(([family, counts]) => `| ${family} | ${counts.formulas} | ${counts.agree} | ${counts.left} | ${counts.moment} | ${counts.wrong} |`);
    const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([why, count]) => `${why} ${count}`);
    process.stdout.write(`excel corpus, by family (formulas, agree, left, of the moment or unsaved, wrong):\n${lines.join("\n")}\nleft, by reason: ${top.join("; ")}\n`);
    const agree = compared.reduce((sum, file) => sum + file.agree, 0);
    expect(agree).toBeGreaterThan(10_000);
  });
});

describe("Excel's comparison", () => {
  it("numbers at 15 significant digits, errors by kind, text exactly", () => {
    expect(sameAsExcel(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameAsExcel(0.7117292615354576, 0.7117292615354573)).toBe(true);
    expect(sameAsExcel(1.00000000000001, 1.00000000000002)).toBe(false);
    expect(sameAsExcel({ kind: "error", code: "#N/A", message: "no match" }, { error: "#N/A" })).toBe(true);
    expect(sameAsExcel({ kind: "error", code: "#VALUE!" }, { error: "#N/A" })).toBe(false);
    expect(sameAsExcel("abc", "Abc")).toBe(false);
    expect(sameAsExcel(null, 0)).toBe(true);
  });
});
