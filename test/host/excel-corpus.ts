/**
 * The public Excel-written corpus (test/host/excel-corpus/*.xlsx, sources in its README): each file read with the
 * runner's reader asked for every formula (not only the price cone), every sheet evaluated by the engine with no saved
 * value to prove against (the engine itself is measured, not the runner's proof), and each formula's result compared
 * with the value Excel saved for it as Excel compares (15 significant digits, errors by kind, text exactly).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatCellAddress } from "../../src/formula/a1";
import { createHostApi } from "../../src/host/page-api";
import type { SavedCell } from "../../src/host/book-saved";
import { sameValue } from "../../src/host/proof";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import type { CellValue } from "../../src/host/values";
import { WorkbookPackage } from "../../src/xlsx/package";
import { savedCellOf } from "../../src/xlsx/saved-values";
import { type FormulaSource, readWorkbookFile } from "../../src/xlsx/workbook-file";
import { FIXTURES, fixtureMetadata } from "./harness";

export const CORPUS = join(__dirname, "excel-corpus");

/** Functions whose value Excel computed at save time from the clock or a random draw: nothing can reproduce it. */
const OF_THE_MOMENT = /\b(?:TODAY|NOW|RAND|RANDBETWEEN|RANDARRAY)\s*\(/i;

export interface CorpusCell {
  readonly cell: string;
  readonly formula: string;
}

export interface Disagreement extends CorpusCell {
  readonly excel: unknown;
  readonly engine: unknown;
}

export interface FileComparison {
  readonly file: string;
  /** The application docProps/app.xml names. */
  readonly application: string;
  readonly formulas: number;
  readonly agree: number;
  /** Left for Excel by the reader or the engine, with why in their words. */
  readonly left: readonly (CorpusCell & { readonly why: string })[];
  /** Formulas of the moment (TODAY, RAND...), whose saved value no engine can reproduce. */
  readonly ofTheMoment: number;
  /** Formulas the file saved no value for. */
  readonly unsaved: number;
  readonly wrong: readonly Disagreement[];
}

function fixtureApi() {
  const runtime = createCustomFunctionsRuntime();
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.CustomFunctions = runtime.global;
  new Function(readFileSync(join(FIXTURES, "functions.js"), "utf8"))();
  return createHostApi({ runtime, metadata: fixtureMetadata(), requests: () => ({ total: 0, byPath: {} }), addin: () => undefined, setCountedBase: () => undefined });
}

/** The application that last saved the package, as docProps/app.xml names it ("" when it names none). */
export function applicationOf(pkg: WorkbookPackage): string {
  const app = pkg.has("docProps/app.xml") ? pkg.text("docProps/app.xml") : "";
  return /<(?:\w+:)?Application>([^<]*)</.exec(app)?.[1]?.trim() ?? "";
}

/** Each cell a formula's saved result covers (its anchor, or its saved array area), with the value Excel saved there. */
function savedArea(address: string, source: FormulaSource, spilled: ReadonlyMap<string, unknown> | undefined): { address: string; saved: unknown }[] {
  const area = source.array?.area;
  if (area === undefined) return [{ address, saved: source.saved }];
  const cells: { address: string; saved: unknown }[] = [];
  for (let row = area.top; row <= area.bottom; row += 1) {
    for (let col = area.left; col <= area.right; col += 1) {
      const at = formatCellAddress({ row, col });
      cells.push({ address: at, saved: at === address ? source.saved : spilled?.get(at) });
    }
  }
  return cells;
}

export async function compareFile(file: string, directory = CORPUS): Promise<FileComparison> {
  const path = join(directory, file);
  const pkg = WorkbookPackage.read(path);
  const workbook = readWorkbookFile(path, () => undefined, pkg, { formulas: "every formula" });
  // no saved values: the engine is measured over what it computes itself, not helped by the proof; a formula of the
  // moment keeps the value Excel saved (as the runner's --today would give the day it was saved) for what reads it
  const sheets = workbook.sheets.map(({ name, book }) => {
    const { saved: _saved, savedUnproven: _unproven, cells, ...rest } = book as { cells: Record<string, unknown> } & Record<string, unknown>;
    const sources = workbook.formulas.get(name);
    const asSaved = Object.entries(cells).map(([address, value]) => {
      const source = sources?.get(address);
      return source !== undefined && OF_THE_MOMENT.test(source.text) ? [address, source.saved ?? null] : [address, value];
    });
    const legacy = (rest.legacy as string[] | undefined)?.filter((address) => !OF_THE_MOMENT.test(sources?.get(address)?.text ?? ""));
    return { name, book: { ...rest, cells: Object.fromEntries(asSaved), ...(legacy === undefined ? {} : { legacy }) } };
  });
  const result = await fixtureApi().evaluateWorkbook(sheets, { names: workbook.names, tables: workbook.tables });
  let formulas = workbook.kept.length;
  let agree = 0;
  let ofTheMoment = 0;
  let unsaved = 0;
  const left = workbook.kept.map((entry) => ({ cell: `${entry.sheet}!${entry.cell}`, formula: entry.formula, why: entry.why }));
  const wrong: Disagreement[] = [];
  for (const sheet of result.sheets) {
    const leftHere = new Map((sheet.leftForExcel ?? []).map((entry) => [entry.cell, entry.why]));
    for (const [address, source] of workbook.formulas.get(sheet.name) ?? []) {
      formulas += 1;
      const cell = `${sheet.name}!${address}`;
      const why = leftHere.get(address);
      if (why !== undefined) left.push({ cell, formula: source.text, why });
      else if (OF_THE_MOMENT.test(source.text)) ofTheMoment += 1;
      else if (source.saved === undefined) unsaved += 1;
      else {
        const cells = savedArea(address, source, workbook.spilled.get(sheet.name));
        const differs = cells.find(({ address: at, saved }) => !sameAsExcel(sheet.values[at] ?? null, savedCellOf(saved as FormulaSource["saved"]) ?? null));
        if (differs === undefined) agree += 1;
        else wrong.push({ cell: differs.address === address ? cell : `${cell} (at ${differs.address})`, formula: source.text, excel: differs.saved ?? null, engine: shown(sheet.values[differs.address] ?? null) });
      }
    }
  }
  return { file, application: applicationOf(pkg), formulas, agree, left, ofTheMoment, unsaved, wrong };
}

/**
 * Excel's comparison (the proof's: 15 significant digits, errors by kind, text exactly), where two numbers whose
 * difference lies past the 15th digit (0.7117292615354576 and ...573) are equal although their 15-digit roundings
 * fall either side of a boundary.
 */
/** The runner's own proof rule (src/host/proof.ts): the corpus judges the engine as a refresh does. */
export const sameAsExcel = sameValue;

function shown(value: CellValue): unknown {
  return typeof value === "object" && value !== null ? value.code : value;
}

/** A formula's function family: the IronCalc folder its file came from (the part of its name before `__`), else "other". */
export function familyOf(file: string): string {
  const [family, rest] = file.split("__");
  return rest === undefined ? "other" : (family ?? "other");
}

/** The function a reason names (`function not supported: BESSELJ`), for counting what is left by function. */
export function leftReason(why: string): string {
  const named = /function not supported: ([A-Z0-9._]+)/i.exec(why);
  if (named?.[1]) return `not supported: ${named[1].replace(/^_xlfn\./i, "").toUpperCase()}`;
  if (/^depends on /.test(why)) return "depends on a cell left for Excel";
  return why.replace(/\$?[A-Z]{1,3}\$?\d+/g, "…").slice(0, 80);
}
