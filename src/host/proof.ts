/**
 * The proof: before a formula's new value is written, the engine evaluates it over the book as it was saved (every
 * reference read at its saved value) and must give the value Excel saved for it, compared as Excel compares (15
 * significant digits, errors by kind, text exactly). What it cannot reproduce is left for Excel with why; what has
 * nothing to be proven against (no saved value, a price asked inside a larger formula, today's date) is unproven.
 */
import { formatCellAddress, rangeContains } from "../formula/a1";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { canonicalName } from "../formula/functions";
import { cellKey, positionOfKey } from "./addresses";
import type { LeftForExcel } from "./book-names";
import { type SavedCell, type SavedGrid, type SavedValues, savedCellValue } from "./book-saved";
import { sameNumber, significant } from "./coerce";
import type { FormulaCell, ProofState } from "./dependency-graph";
import type { ResultGrid } from "./results";
import { plainOf } from "./rich-cells";
import { Sheet } from "./sheet";
import { readSheet } from "./sheet-reads";
import type { ArrayValue } from "./value-array";
import { type CellError, type CellValue, isCellError } from "./values";
import { resultOf } from "./implicit-intersection";
import { type Eventually, isPending } from "./eventually";

/** Functions whose value on the day the file was saved is not known from the file. */
const OF_THE_MOMENT = new Set(["TODAY", "NOW", "RAND", "RANDBETWEEN", "RANDARRAY"]);

/** A formula that is just a PRICES call: one state for all 10,000 of a model's. */
const PRICE: ProofState = { kind: "price" };

/** A proof evaluation asked for a custom function's value, which the saved book holds only for a formula that is just the call. */
export class UnprovenSignal extends Error {
  override readonly name = "UnprovenSignal";
  constructor(readonly why: string) {
    super(why);
  }
}

export interface ProvenFormula {
  readonly address: string;
  readonly expression: Expression;
  /** The functions it calls, canonical, names resolved. */
  readonly called: readonly string[];
  readonly unsupported: string | undefined;
}

/**
 * What the saved book proves about `formula`: `evaluateSaved` evaluates it with every reference at its saved value
 * (throwing UnprovenSignal for a custom call, or any other signal when it cannot be evaluated at all).
 */
export function prove(formula: ProvenFormula, saved: SavedValues, namespace: string, evaluateSaved: () => Eventually<ResultGrid>): Eventually<ProofState | undefined> {
  if (formula.unsupported !== undefined) return undefined;
  // a legacy formula's `@PRICES.HISTORY(...)` shows the call's first cell: still the service's value alone
  const { expression } = resultOf(formula.expression);
  const prefix = `${namespace}.`;
  // the custom calls counted, the first kept: no list per formula
  let custom: string | undefined;
  let customs = 0;
  for (const name of formula.called) {
    if (!name.startsWith(prefix)) continue;
    custom ??= name;
    customs += 1;
  }
  // its old value is the price the service gave then: the engine has nothing to reproduce
  if (expression.kind === "call" && customs === 1 && canonicalName(expression.name, namespace).startsWith(prefix)) return PRICE;
  if (custom !== undefined) return { kind: "unproven", why: `calls ${custom} inside a larger formula: its old price was never saved on its own` };
  const moment = formula.called.find((name) => OF_THE_MOMENT.has(name));
  if (moment !== undefined) return { kind: "unproven", why: `calls ${moment}(), whose value when the file was saved is not known` };
  if (saved.unproven !== undefined) return { kind: "unproven", why: saved.unproven };
  const expected = saved.cells.get(formula.address);
  if (expected === undefined) return { kind: "unproven", why: "the file holds no saved value for it" };
  let grid: Eventually<ResultGrid>;
  try {
    grid = evaluateSaved();
  } catch (error) {
    return unprovable(error);
  }
  const judge = (cells: ResultGrid): ProofState => {
    const difference = differenceFrom(cells, expected, formula.address);
    return difference === undefined ? { kind: "proven" } : { kind: "disproved", why: difference };
  };
  return isPending(grid) ? grid.then(judge, unprovable) : judge(grid);
}

/** What an evaluation over the saved book that stopped says: a custom call's old value not saved, or nothing (the run decides). */
function unprovable(error: unknown): ProofState | undefined {
  if (error instanceof UnprovenSignal) return { kind: "unproven", why: error.why };
  // left for Excel or waiting on something the run itself will say: the run decides
  return undefined;
}

/** Where the engine's result differs from the saved one, in words, or undefined when Excel would call them equal. */
export function differenceFrom(grid: ResultGrid, saved: SavedGrid, address: string): string | undefined {
  const rows = grid.length;
  const cols = grid[0]?.length ?? 0;
  const savedRows = saved.length;
  const savedCols = saved[0]?.length ?? 0;
  const single = rows === 1 && cols === 1 && savedRows === 1 && savedCols === 1;
  for (let row = 0; row < Math.max(rows, savedRows); row += 1) {
    for (let col = 0; col < Math.max(cols, savedCols); col += 1) {
      const inGrid = row < rows && col < cols;
      const inSaved = row < savedRows && col < savedCols;
      const expected = inSaved ? (saved[row]?.[col] ?? null) : undefined;
      // a legacy array formula's fixed area shows #N/A past its result, as Excel saved it
      if (!inGrid && expected !== undefined && isSavedError(expected, "#N/A")) continue;
      if (!inGrid || expected === undefined) return `engine gives ${rows}×${cols} values where Excel saved ${savedRows}×${savedCols}`;
      const actual = plainOf(grid[row]?.[col] ?? null);
      if (sameValue(actual, expected)) continue;
      const where = single ? "" : ` at ${cellAt(address, row, col)}`;
      return `engine gives ${describeValue(actual)}${where} where Excel saved ${describeSaved(expected)}`;
    }
  }
  return undefined;
}

function cellAt(anchor: string, row: number, col: number): string {
  const match = /^([A-Z]+)(\d+)$/.exec(anchor);
  if (!match) return anchor;
  let index = 0;
  for (const letter of match[1] ?? "") index = index * 26 + letter.charCodeAt(0) - 64;
  return formatCellAddress({ row: Number(match[2]) - 1 + row, col: index - 1 + col });
}

function isSavedError(cell: SavedCell, code: string): boolean {
  return cell !== null && typeof cell === "object" && cell.error === code;
}

/**
 * Excel's equality of a result and a saved cell: numbers at 15 significant digits, errors by kind, text exactly; empty
 * shows 0. Two numbers that differ only past the 15th digit are equal too, though their 15-digit roundings fall either
 * side of a boundary (0.71172926153545765 and ...573): Excel keeps no more digits than that.
 */
export function sameValue(actual: CellValue, saved: SavedCell): boolean {
  const value = actual === null ? 0 : actual;
  if (saved === null) return value === 0 || value === "";
  if (typeof saved === "object") return isCellError(value) && value.code === saved.error;
  if (typeof saved === "number") return typeof value === "number" && sameNumber(value, saved);
  return value === saved;
}

export function describeValue(value: CellValue): string {
  if (value === null) return "an empty cell";
  if (isCellError(value)) return value.code;
  return describeScalar(value);
}

function describeSaved(cell: SavedCell): string {
  if (cell === null) return "an empty cell";
  if (typeof cell === "object") return cell.error;
  return describeScalar(cell);
}

function describeScalar(value: number | string | boolean): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(significant(value));
}

/** What the proof said of the formulas evaluated and not left for Excel (src/host/proof.ts). */
export interface ProofSummary {
  /** Formulas whose value over the saved book was the value Excel saved. */
  readonly proven: readonly string[];
  /** Formulas that are a PRICES call and nothing else: their value is the service's. */
  readonly prices: readonly string[];
  /** Formulas evaluated with nothing to prove them against, with why. */
  readonly unproven: readonly LeftForExcel[];
}

/** What the proof said of each formula evaluated and not left for Excel; a book without saved values proves nothing. */
export function proofSummary(formulas: readonly FormulaCell[]): ProofSummary {
  const proven: string[] = [];
  const prices: string[] = [];
  const unproven: LeftForExcel[] = [];
  for (const formula of formulas) {
    if (formula.left !== undefined) continue;
    const { proof } = formula;
    if (proof?.kind === "proven") proven.push(formula.address);
    else if (proof?.kind === "price") prices.push(formula.address);
    else if (proof === undefined || proof.kind === "unproven") {
      unproven.push({ cell: formula.address, formula: withoutEquals(formula.text), why: proof === undefined ? "the book holds no saved values" : proof.why });
    }
  }
  return { proven, prices, unproven };
}

/** A formula's text as a report shows it, without its `=` (a slice where it is the first character, as the reader writes it). */
function withoutEquals(text: string): string {
  return text.startsWith("=") ? text.slice(1) : text.replace(/^\s*=/, "");
}

/** The sheet as the file saved it: its literals, and each formula's saved result placed at its anchor. */
export class SavedSheet {
  readonly sheet = new Sheet();
  /** Formulas the file holds no value for: a proof that reads one has nothing to stand on. */
  private readonly unsaved: FormulaCell[] = [];
  private readonly unsavedKeys = new Set<number>();
  private readonly anchors = new Set<number>();

  constructor(literals: ReadonlyMap<number, CellValue>, formulas: readonly FormulaCell[], saved: SavedValues | undefined) {
    for (const [key, value] of literals) {
      const { row, col } = positionOfKey(key);
      this.sheet.setLiteral(row, col, value);
    }
    for (const formula of formulas) {
      const grid = saved?.cells.get(formula.address);
      this.sheet.addAnchor(formula.row, formula.col);
      this.anchors.add(cellKey(formula.row, formula.col));
      if (grid) this.sheet.place(formula.row, formula.col, grid.map((row) => row.map(savedCellValue)));
      else {
        this.unsaved.push(formula);
        this.unsavedKeys.add(cellKey(formula.row, formula.col));
      }
    }
  }

  /** A reference's saved values; `prefix` names the sheet for a reader on another one. */
  read(reference: ReferenceExpression, prefix: string): ArrayValue | CellError {
    const { top, left, bottom, right } = reference.range;
    // one cell is one lookup: a model's thousands of `=C2/B2-1` read two cells each
    const single = top === bottom && left === right;
    const missing = single ? (this.unsavedKeys.has(cellKey(top, left)) ? this.unsaved.find((formula) => formula.row === top && formula.col === left) : undefined) : this.unsaved.find((formula) => rangeContains(reference.range, formula.row, formula.col));
    if (missing) throw new UnprovenSignal(`reads ${prefix}${missing.address}, for which the file holds no saved value`);
    return readSheet(this.sheet, reference, (row, col) => this.anchors.has(cellKey(row, col)));
  }
}
