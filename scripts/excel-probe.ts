/**
 * Issue 27's probe: a workbook of IRR, MIRR and RATE cases designed to tell apart the arithmetic paths the candidate
 * scripts could not (scripts/solver-candidates.ts, scripts/closed-form-candidates.ts, scripts/mirr-rounding-candidates.ts:
 * too few values Excel saved). Someone with Excel opens the written file, lets it calculate, saves it; `score` then reads
 * Excel's cached values and counts, for today's engine and for every candidate those scripts define, the cells it gives
 * to the bit and at Excel's 15 digits (src/host/proof.ts), and which it misses. docs/formula-engine.md ("What stays
 * listed (7)") says what the score decides.
 *   npx tsx scripts/excel-probe.ts write probe.xlsx
 *   npx tsx scripts/excel-probe.ts score saved.xlsx [--only IRR,MIRR,RATE] [--stores] [--all]
 * Each row holds its case id (A), the formula (B), the scalar arguments (C:H), the value the source file saved for a
 * case copied from one (I: was the probing Excel the same?) and the cash flows (from J): the score needs nothing else.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { strToU8, zipSync } from "fflate";
import { columnName, formatCellAddress, parseCellAddress } from "../src/formula/a1";
import { LeftForExcelSignal } from "../src/host/left-for-excel";
import { sameValue } from "../src/host/proof";
import { arrayOf } from "../src/host/value-array";
import { isCellError } from "../src/host/values";
import { FINANCE } from "../src/host/worksheet-finance";
import { FINANCE_SOLVERS } from "../src/host/worksheet-finance-solvers";
import { WorkbookPackage } from "../src/xlsx/package";
import { whyNotExcelValues } from "../src/xlsx/saved-values";
import { readWorkbookFile } from "../src/xlsx/workbook-file";
import { type Candidate as ClosedForm, corpusCells, mirrCandidates } from "./closed-form-candidates";
import { mirrRoundingCandidates } from "./mirr-rounding-candidates";
import { PUBLIC_IRR, PUBLIC_MIRR, PUBLIC_RATE, doubleOf } from "./public-excel-samples";
import { type Candidate as Solver, irrCandidates, irrRoundingCandidates, irrStoreCandidates, rateCandidates, solverCells } from "./solver-candidates";

export type Fn = "IRR" | "MIRR" | "RATE";

/** One designed cell: IRR's `scalars` are [] or [guess], MIRR's [finance, reinvest], RATE's [nper, pmt, pv, fv, type, guess]. */
export interface ProbeCase {
  readonly id: string;
  readonly fn: Fn;
  readonly scalars: readonly number[];
  readonly flows: readonly number[];
  /** The value Excel saved for these inputs in the file the case comes from, if it comes from one. */
  readonly reference?: number;
}

/** A value as the score compares it: a number, an error's code, or "left" (the engine leaves it for Excel). */
export type Outcome = number | `#${string}` | "left";

/** A case as read back from a saved probe, with Excel's cached value (undefined when none was saved). */
export interface ProbeCell extends ProbeCase {
  readonly excel: Outcome | undefined;
}

const SCALARS = 6;
/** The columns: id, formula, six scalars, the reference value, then the flows. */
const [ID_COL, FORMULA_COL, FIRST_SCALAR_COL, REFERENCE_COL, FIRST_FLOW_COL] = [0, 1, 2, 2 + SCALARS, 3 + SCALARS] as const;

// ---- the design ----

/** The double next to `value` toward +Infinity (direction 1) or -Infinity (-1): one unit in its last place. */
export function nextDouble(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, (value > 0) === (direction > 0) ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** A fixed pseudo-random sequence (a linear congruential one): the same probe on every write. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** n integer flows, a cost first and gains after with a cost among them now and then, as the corpus's files have. */
function randomFlows(next: () => number, n: number): number[] {
  const first = -Math.round(100 + next() * 9900);
  // + 0: a rounded small cost is -0, which a cell does not keep
  return [first, ...Array.from({ length: n - 1 }, () => Math.round((next() < 0.15 ? -0.3 : 1) * next() * (-first / 2)) + 0)];
}

/** The three listed IRR cells (FINANCIAL__IRR.xlsx General!L27, L50, L56), with Excel's values. */
const LISTED_IRR = [
  { at: "L27", flows: [-120, 30, 20, 30, 20, 30], excel: 0.027307616095139098 },
  { at: "L50", flows: [-145, 30, 20, 30, 20, 30], excel: -0.03529827791690443 },
  { at: "L56", flows: [-175, 30, 20, 30, 20, 30], excel: -0.09135134495590647 },
] as const;
/** The four listed MIRR cells (FINANCIAL__MIRR.xlsx "Three parameters"!F26, F29, F30, F32): three finance rates. */
const LISTED_MIRR = { flows: [-50, 25, 30], finance: [0.3, 12, -12], reinvest: -0.4, excel: -0.05131670194948612 } as const;

const IRR_ROOTS = [-0.9, -0.5, -0.2, -0.05, -0.01, -0.001, 0.0001, 0.001, 0.01, 0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.5, 1, 2, 5, 10];

function irrCases(): ProbeCase[] {
  const cases: ProbeCase[] = [];
  const irr = (id: string, flows: readonly number[], guess?: number, reference?: number): void => {
    cases.push({ id, fn: "IRR", scalars: guess === undefined ? [] : [guess], flows, ...(reference === undefined ? {} : { reference }) });
  };
  for (const { at, flows, excel } of LISTED_IRR) {
    irr(`irr-listed/${at}`, flows, undefined, excel);
    flows.forEach((flow, index) => {
      const nudged = (value: number) => flows.map((other, i) => (i === index ? value : other));
      for (const direction of [1, -1] as const) irr(`irr-ulp/${at}/flow${index}${direction > 0 ? "+" : "-"}1ulp`, nudged(nextDouble(flow, direction)));
      for (const power of [13, 10, 7, 4]) {
        for (const sign of [1, -1]) irr(`irr-nudge/${at}/flow${index}${sign > 0 ? "+" : "-"}1e-${power}`, nudged(flow + sign * Math.abs(flow) * 10 ** -power));
      }
    });
    for (const offset of [-0.5, -0.1, -0.01, -1e-3, -1e-5, 1e-5, 1e-3, 0.01, 0.1, 0.5]) irr(`irr-guess/${at}/root${offset > 0 ? "+" : ""}${offset}`, flows, excel + offset);
    for (const guess of [-0.9, -0.5, 0, 0.05, 0.2, 1, 10]) irr(`irr-guess/${at}/${guess}`, flows, guess);
  }
  for (const cell of solverCells("FINANCIAL__IRR.xlsx", "IRR")) irr(`irr-corpus/${cell.at}`, cell.inputs, cell.guess === 0.1 ? undefined : cell.guess, cell.excel);
  for (const sample of PUBLIC_IRR) irr(`irr-public/${sample.at}`, sample.inputs, sample.guess === 0.1 ? undefined : sample.guess, doubleOf(sample.bits));
  // a cost of 1000, then level gains whose IRR is near `root` (the payment to the cent), over 1 to 7 periods
  for (const root of IRR_ROOTS) {
    for (let periods = 1; periods <= 7; periods += 1) {
      const payment = Math.round((root === 0 ? 1000 / periods : (1000 * root) / (1 - (1 + root) ** -periods)) * 100) / 100;
      irr(`irr-rate/${root}/n${periods + 1}`, [-1000, ...Array.from({ length: periods }, () => payment)]);
    }
  }
  const next = sequence(27);
  const random = Array.from({ length: 60 }, (_, index) => randomFlows(next, 3 + (index % 6)));
  random.forEach((flows, index) => irr(`irr-random/${index}`, flows));
  // the engine leaves a large book's IRR for Excel when its NPV never gets under 1E-7: is Excel's a value or #NUM!?
  for (const [name, flows] of [...LISTED_IRR.map(({ at, flows }) => [at, flows] as const), ...random.slice(0, 3).map((flows, index) => [`random${index}`, flows] as const)]) {
    for (let power = 0; power <= 9; power += 1) irr(`irr-scale/${name}/1e${power}`, flows.map((flow) => flow * 10 ** power));
  }
  return cases;
}

const MIRR_FINANCE = [-0.4, 0, 0.1];
const MIRR_REINVEST = [-0.41, nextDouble(-0.4, -1), -0.4, nextDouble(-0.4, 1), -0.39, -0.01, 0, 0.01, 0.09, 0.1, 0.11];

function mirrCases(): ProbeCase[] {
  const cases: ProbeCase[] = [];
  const mirr = (id: string, flows: readonly number[], finance: number, reinvest: number, reference?: number): void => {
    cases.push({ id, fn: "MIRR", scalars: [finance, reinvest], flows, ...(reference === undefined ? {} : { reference }) });
  };
  for (const finance of LISTED_MIRR.finance) mirr(`mirr-listed/f${finance}`, LISTED_MIRR.flows, finance, LISTED_MIRR.reinvest, LISTED_MIRR.excel);
  for (const cell of corpusCells().filter((each) => each.fn === "MIRR")) {
    const [flows, finance, reinvest] = cell.args.map((arg) => arg.saved);
    if (Array.isArray(flows) && typeof finance === "number" && typeof reinvest === "number") mirr(`mirr-corpus/${cell.key}`, flows, finance, reinvest, cell.excel);
  }
  for (const sample of PUBLIC_MIRR) mirr(`mirr-public/${sample.at}`, sample.inputs.slice(0, -2), sample.inputs.at(-2) ?? 0, sample.inputs.at(-1) ?? 0, doubleOf(sample.bits));
  const sets: [string, readonly number[]][] = [["listed", LISTED_MIRR.flows]];
  LISTED_MIRR.flows.forEach((flow, index) => {
    for (const direction of [1, -1] as const) sets.push([`listed-flow${index}${direction > 0 ? "+" : "-"}1ulp`, LISTED_MIRR.flows.map((other, i) => (i === index ? nextDouble(flow, direction) : other))]);
  });
  const next = sequence(2027);
  for (let n = 2; n <= 8; n += 1) for (const copy of [0, 1]) sets.push([`random-n${n}-${copy}`, randomFlows(next, n)]);
  for (const [name, flows] of sets) {
    for (const finance of MIRR_FINANCE) for (const reinvest of MIRR_REINVEST) mirr(`mirr-grid/${name}/f${finance}/r${reinvest}`, flows, finance, reinvest);
  }
  return cases;
}

/** RATE's pmt, pv, fv, type and guess, each over 1 to 12 periods (and loans of 60 to 360 months below). */
const RATE_SHAPES: readonly (readonly number[])[] = [
  [-388, 22000, 0, 0, 0.1],
  [-100, 1000, 0, 0, 0.1],
  [100, -1000, 0, 0, 0.1],
  [-200, 8000, 0, 1, 0.1],
  [0, -1000, 1500, 0, 0.1],
  [-50, 1000, 200, 0, 0.05],
  [-1000, 5000, 0, 0, -0.5],
];

function rateCases(): ProbeCase[] {
  const cases: ProbeCase[] = [];
  const rate = (id: string, inputs: readonly number[], reference?: number): void => {
    const scalars = Array.from({ length: SCALARS }, (_, index) => inputs[index] ?? (index === 5 ? 0.1 : 0));
    cases.push({ id, fn: "RATE", scalars, flows: [], ...(reference === undefined ? {} : { reference }) });
  };
  for (const cell of solverCells("FINANCIAL__RATE.xlsx", "RATE")) rate(`rate-corpus/${cell.at}`, cell.inputs.length >= 6 ? cell.inputs : [...cell.inputs, ...Array<number>(5 - cell.inputs.length).fill(0), cell.guess], cell.excel);
  for (const sample of PUBLIC_RATE) rate(`rate-public/${sample.at}`, sample.inputs, doubleOf(sample.bits));
  RATE_SHAPES.forEach((shape, index) => {
    for (let periods = 1; periods <= 12; periods += 1) rate(`rate-grid/${index}/n${periods}`, [periods, ...shape]);
  });
  // loans and annuities of 5 to 30 years by the month, from the default guess: the engine's secant does not settle
  // on the longest (RATE(360,-1000,180000) is left for Excel), so Excel's value there shows which path Excel takes
  for (const periods of [60, 120, 180, 240, 300, 360]) {
    for (const [pmt, pv] of [[-1000, 180000], [-1500, 250000], [-500, 50000], [200, -30000]] as const) rate(`rate-long/n${periods}/${pmt}/${pv}`, [periods, pmt, pv]);
  }
  return cases;
}

/** Every designed case, in the probe's row order. */
export function designCases(): ProbeCase[] {
  return [...irrCases(), ...mirrCases(), ...rateCases()];
}

/** A case's family: its id up to the first slash (irr-ulp, mirr-grid...). */
export const familyOf = (id: string): string => id.slice(0, id.indexOf("/"));

// ---- the file ----

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const at = (row: number, col: number): string => formatCellAddress({ row, col });

/** The formula of a case in its row (0-based), its arguments the row's own cells. */
function formulaOf(one: ProbeCase, row: number): string {
  const flows = `${at(row, FIRST_FLOW_COL)}:${at(row, FIRST_FLOW_COL + one.flows.length - 1)}`;
  const scalar = (index: number): string => at(row, FIRST_SCALAR_COL + index);
  if (one.fn === "IRR") return one.scalars.length === 0 ? `IRR(${flows})` : `IRR(${flows},${scalar(0)})`;
  if (one.fn === "MIRR") return `MIRR(${flows},${scalar(0)},${scalar(1)})`;
  return `RATE(${one.scalars.map((_, index) => scalar(index)).join(",")})`;
}

const numberCell = (row: number, col: number, value: number): string => `<c r="${at(row, col)}"><v>${String(value)}</v></c>`;

/** A formula cell, with a cached value only when one is given (the test's stand-in for Excel's save). */
function formulaCell(row: number, formula: string, cached: Outcome | undefined): string {
  const address = at(row, FORMULA_COL);
  if (cached === undefined || cached === "left") return `<c r="${address}"><f>${formula}</f></c>`;
  if (typeof cached === "number") return `<c r="${address}"><f>${formula}</f><v>${String(cached)}</v></c>`;
  return `<c r="${address}" t="e"><f>${formula}</f><v>${escapeXml(cached)}</v></c>`;
}

/**
 * The probe as a package: one sheet, a header row, a case a row, no cached values (unless `cached` gives them by id)
 * and fullCalcOnLoad, so that Excel computes every formula when it opens the file.
 */
export function probePackage(cases: readonly ProbeCase[], cached: ReadonlyMap<string, Outcome> = new Map()): Uint8Array {
  const inline = (row: number, col: number, text: string) => `<c r="${at(row, col)}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`;
  const header = ["id", "formula", "scalar 1", "scalar 2", "scalar 3", "scalar 4", "scalar 5", "scalar 6", "saved elsewhere", "flows"];
  // the counts read the ids and the saved values, and so the project's reader keeps those cells (it keeps what formulas read)
  const last = cases.length + 1;
  const counts = [`<c r="${at(0, header.length)}"><f>COUNTA(A2:A${last})</f></c>`, `<c r="${at(0, header.length + 1)}"><f>COUNT(${at(1, REFERENCE_COL)}:${at(last - 1, REFERENCE_COL)})</f></c>`];
  const rows = [`<row r="1">${header.map((text, col) => inline(0, col, text)).join("")}${counts.join("")}</row>`];
  cases.forEach((one, index) => {
    const row = index + 1;
    const cells = [inline(row, ID_COL, one.id), formulaCell(row, formulaOf(one, row), cached.get(one.id))];
    one.scalars.forEach((value, col) => cells.push(numberCell(row, FIRST_SCALAR_COL + col, value)));
    if (one.reference !== undefined) cells.push(numberCell(row, REFERENCE_COL, one.reference));
    one.flows.forEach((value, col) => cells.push(numberCell(row, FIRST_FLOW_COL + col, value)));
    rows.push(`<row r="${row + 1}">${cells.join("")}</row>`);
  });
  const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const widest = Math.max(...cases.map((one) => one.flows.length));
  const files = {
    "[Content_Types].xml": `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    "_rels/.rels": `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/_rels/workbook.xml.rels": `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
    "xl/workbook.xml": `${head}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Probe" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029" fullCalcOnLoad="1"/></workbook>`,
    "xl/styles.xml": `${head}<styleSheet xmlns="${main}"><fonts count="1"><font><sz val="11"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="1"><xf/></cellXfs></styleSheet>`,
    "xl/worksheets/sheet1.xml": `${head}<worksheet xmlns="${main}" xmlns:r="${rel}"><dimension ref="A1:${columnName(FIRST_FLOW_COL + widest - 1)}${cases.length + 1}"/><sheetData>${rows.join("")}</sheetData></worksheet>`,
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

/** The numbers of a reference (`J2:L2` or `C2`), as saved. */
function referenced(cells: Readonly<Record<string, unknown>>, reference: string): number[] {
  const [first = "", last = first] = reference.split(":");
  const [from, to] = [parseCellAddress(first), parseCellAddress(last)];
  if (from === undefined || to === undefined) throw new Error(`not a reference: ${reference}`);
  const values: number[] = [];
  for (let col = from.col; col <= to.col; col += 1) {
    const value = cells[at(from.row, col)];
    if (typeof value === "number") values.push(value);
  }
  return values;
}

/** Every case of a (saved) probe, read back with the project's reader: its inputs from its row, Excel's cached value. */
export function readProbe(path: string): { cells: ProbeCell[]; notExcel: string | undefined } {
  const pkg = WorkbookPackage.read(path);
  const workbook = readWorkbookFile(path, () => undefined, pkg, { formulas: "every formula" });
  const cells: ProbeCell[] = [];
  for (const { name, book } of workbook.sheets) {
    const literals = (book as unknown as { cells: Record<string, unknown> }).cells;
    for (const [address, source] of workbook.formulas.get(name) ?? []) {
      const call = /^(IRR|MIRR|RATE)\((.*)\)$/.exec(source.text.replace(/^=/, ""));
      const cell = parseCellAddress(address);
      const id = cell === undefined ? undefined : literals[at(cell.row, ID_COL)];
      if (call?.[1] === undefined || call[2] === undefined || cell === undefined || typeof id !== "string") continue;
      const fn = call[1] as Fn;
      const args = call[2].split(",");
      const [flows, scalars] = fn === "RATE" ? [[], args] : [referenced(literals, args[0] ?? ""), args.slice(1)];
      const reference = literals[at(cell.row, REFERENCE_COL)];
      const saved = source.saved;
      const excel: Outcome | undefined = typeof saved === "number" ? saved : typeof saved === "object" && saved !== null && "error" in saved ? (saved.error as `#${string}`) : undefined;
      cells.push({ id: id.replace(/^'/, ""), fn, scalars: scalars.map((arg) => referenced(literals, arg)[0] ?? 0), flows, ...(typeof reference === "number" ? { reference } : {}), excel });
    }
  }
  return { cells, notExcel: whyNotExcelValues(pkg, "xl/workbook.xml") };
}

// ---- the score ----

const ENV = { dateSystem: "1900", at: { row: 0, col: 0 } } as const;

/** Today's engine on a case: the worksheet function itself, as the corpus test's evaluation reaches it. */
export function engineOutcome(one: ProbeCase): Outcome {
  const spec = one.fn === "MIRR" ? FINANCE.MIRR : FINANCE_SOLVERS[one.fn];
  if (spec === undefined) throw new Error(`no ${one.fn}`);
  const args = one.fn === "RATE" ? one.scalars : [arrayOf([one.flows]), ...one.scalars];
  try {
    const value = spec.run(args, ENV as never);
    if (typeof value === "number") return value;
    if (isCellError(value)) return value.code as `#${string}`;
    throw new Error(`${one.id}: ${String(value)}`);
  } catch (error) {
    if (error instanceof LeftForExcelSignal) return "left";
    throw error;
  }
}

/** To the bit, at 15 digits, or neither; an error and a candidate's NaN or "error" (no number) count as the same. */
function compare(value: number | string, excel: Outcome): "bits" | "digits" | "differs" {
  if (typeof excel === "string") return (typeof value === "number" && Number.isNaN(value)) || value === "error" || value === excel ? "bits" : "differs";
  if (typeof value !== "number") return "differs";
  if (Object.is(value, excel)) return "bits";
  return sameValue(value, excel) ? "digits" : "differs";
}

export interface Tally {
  readonly name: string;
  /** Cells scored (the engine: those it answers, not those it leaves for Excel). */
  readonly cells: number;
  readonly bits: number;
  /** Equal at 15 digits, those to the bit included. */
  readonly digits: number;
  readonly left: number;
  readonly differ: readonly string[];
}

/** One candidate's (or the engine's) tally over the cells Excel saved a value for. */
export function tally(name: string, cells: readonly ProbeCell[], valueOf: (cell: ProbeCell) => number | string): Tally {
  let [scored, bits, digits, left] = [0, 0, 0, 0];
  const differ: string[] = [];
  for (const cell of cells) {
    if (cell.excel === undefined) continue;
    const value = valueOf(cell);
    if (value === "left") {
      left += 1;
      continue;
    }
    scored += 1;
    const verdict = compare(value, cell.excel);
    bits += Number(verdict === "bits");
    digits += Number(verdict !== "differs");
    if (verdict === "differs") differ.push(cell.id);
  }
  return { name, cells: scored, bits, digits, left, differ };
}

const asSolverCell = (cell: ProbeCell) => {
  const excel = typeof cell.excel === "number" ? cell.excel : NaN;
  return cell.fn === "IRR" ? { at: cell.id, excel, inputs: cell.flows, guess: cell.scalars[0] ?? 0.1 } : { at: cell.id, excel, inputs: cell.scalars, guess: cell.scalars[5] ?? 0.1 };
};

/** A candidate family: its function and its candidates as value functions on a cell. */
export interface Family {
  readonly title: string;
  readonly fn: Fn;
  readonly candidates: () => Map<string, (cell: ProbeCell) => number | string>;
}

const solverFamily = (title: string, fn: Fn, candidates: () => Map<string, Solver>): Family => ({
  title,
  fn,
  candidates: () => new Map([...candidates()].map(([name, candidate]) => [name, (cell: ProbeCell) => candidate(asSolverCell(cell))])),
});

const closedFormFamily = (title: string, candidates: () => Record<string, ClosedForm>): Family => ({
  title,
  fn: "MIRR",
  candidates: () => new Map(Object.entries(candidates()).map(([name, candidate]) => [name, (cell: ProbeCell) => candidate.MIRR?.(cell.flows, cell.scalars[0] ?? 0, cell.scalars[1] ?? 0) ?? "error"])),
});

/** The candidate scripts' families, each from the one definition there; `stores` adds IRR's 3,072 x87 store choices. */
export function families(stores = false): Family[] {
  return [
    solverFamily("IRR paths (scripts/solver-candidates.ts)", "IRR", irrCandidates),
    solverFamily("IRR, Excel's path rounded otherwise (scripts/solver-candidates.ts)", "IRR", irrRoundingCandidates),
    ...(stores ? [solverFamily("IRR in x87's 64 bits, each choice of stores (scripts/solver-candidates.ts IRR-STORES)", "IRR", irrStoreCandidates)] : []),
    solverFamily("RATE paths (scripts/solver-candidates.ts)", "RATE", rateCandidates),
    closedFormFamily("MIRR closed forms (scripts/closed-form-candidates.ts MIRR)", mirrCandidates),
    closedFormFamily("MIRR rounded otherwise (scripts/closed-form-candidates.ts MIRR-ROUNDING)", mirrRoundingCandidates),
  ];
}

export interface Score {
  readonly fn: Fn;
  readonly engine: Tally;
  /** Against the value the source file saved (column I): does the probing Excel give the corpus's and the public files' digits? */
  readonly sameExcel: Tally;
  readonly families: readonly { readonly title: string; readonly tallies: readonly Tally[] }[];
}

/** The engine and every family's candidates over each function's cells. */
export function scoreProbe(cells: readonly ProbeCell[], chosen: readonly Family[], fns: readonly Fn[] = ["IRR", "MIRR", "RATE"]): Score[] {
  return fns.map((fn) => {
    const mine = cells.filter((cell) => cell.fn === fn);
    const withReference = mine.filter((cell) => cell.reference !== undefined);
    return {
      fn,
      engine: tally("today's engine", mine, engineOutcome),
      sameExcel: tally("the source file's saved value", withReference, (cell) => cell.reference ?? NaN),
      families: chosen
        .filter((family) => family.fn === fn)
        .map((family) => ({ title: family.title, tallies: [...family.candidates()].map(([name, candidate]) => tally(name, mine, candidate)).sort((a, b) => b.digits - a.digits || b.bits - a.bits) })),
    };
  });
}

function line(result: Tally, all: boolean): string {
  const shown = all ? result.differ : result.differ.slice(0, 10);
  const more = result.differ.length > shown.length ? ` +${result.differ.length - shown.length} more` : "";
  const left = result.left > 0 ? `, ${result.left} left for Excel` : "";
  return `${String(result.bits).padStart(4)} to the bit, ${String(result.digits).padStart(4)} at 15 digits, of ${result.cells}${left}: ${result.name}${shown.length > 0 ? `\n        differ: ${shown.join(" ")}${more}` : ""}`;
}

/** The cells by family (irr-ulp, mirr-grid...), and of them those in `differ`, when given: where a path's difference shows first. */
function byFamily(cells: readonly ProbeCell[], differ?: readonly string[]): string {
  const counts = new Map<string, [number, number]>();
  for (const cell of cells) {
    const [total, missed] = counts.get(familyOf(cell.id)) ?? [0, 0];
    counts.set(familyOf(cell.id), [total + 1, missed + Number(differ?.includes(cell.id) ?? false)]);
  }
  return [...counts].map(([family, [total, missed]]) => (differ !== undefined ? `${family} ${missed}/${total}` : `${family} ${total}`)).join(", ");
}

function printScore(path: string, cells: readonly ProbeCell[], scores: readonly Score[], all: boolean): void {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out(`${path}: ${cells.length} cases, ${cells.filter((cell) => cell.excel !== undefined).length} with a cached value`);
  for (const { fn, engine, sameExcel, families: scored } of scores) {
    const mine = cells.filter((cell) => cell.fn === fn);
    out(`\n${fn}: ${mine.length} cases (Excel: ${mine.filter((cell) => typeof cell.excel === "number").length} numbers, ${mine.filter((cell) => typeof cell.excel === "string").length} errors)`);
    out(`  ${line(sameExcel, all)}`);
    out(`  ${line(engine, all)}`);
    out(`      misses by family: ${byFamily(mine, engine.differ)}`);
    // what Excel gives where the engine gives nothing (irr-scale: a value or #NUM! for large flows?)
    const left = mine.filter((cell) => cell.excel !== undefined && engineOutcome(cell) === "left");
    const errors = left.filter((cell) => typeof cell.excel === "string");
    if (left.length > 0) out(`      left for Excel by the engine, by family: ${byFamily(left)}; Excel gives an error on ${errors.length}${errors.length > 0 ? `: ${errors.map((cell) => `${cell.id} ${String(cell.excel)}`).join(" ")}` : ""}`);
    for (const { title, tallies } of scored) {
      out(`  ${title}: ${tallies.length} candidates, best first`);
      for (const result of tallies) out(`    ${line(result, all)}`);
    }
  }
}

function main(): void {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { only: { type: "string" }, stores: { type: "boolean", default: false }, all: { type: "boolean", default: false } } });
  const [command, path] = positionals;
  if (command === "write" && path !== undefined) {
    const cases = designCases();
    const bytes = probePackage(cases);
    writeFileSync(path, bytes);
    const counts = new Map<string, number>();
    for (const one of cases) counts.set(familyOf(one.id), (counts.get(familyOf(one.id)) ?? 0) + 1);
    process.stdout.write(`${path}: ${cases.length} cases, ${bytes.length} bytes (${[...counts].map(([family, count]) => `${family} ${count}`).join(", ")})\n`);
    process.stdout.write("Open it in Excel (it calculates on open), save it as .xlsx, then: npx tsx scripts/excel-probe.ts score SAVED.xlsx\n");
    return;
  }
  if (command === "score" && path !== undefined) {
    const { cells, notExcel } = readProbe(path);
    if (cells.every((cell) => cell.excel === undefined)) throw new Error(`${path} holds no cached values: open it in Excel and save it first`);
    if (notExcel !== undefined) process.stdout.write(`warning: ${notExcel}\n`);
    const fns = (values.only?.toUpperCase().split(",") ?? ["IRR", "MIRR", "RATE"]).filter((fn): fn is Fn => fn === "IRR" || fn === "MIRR" || fn === "RATE");
    printScore(path, cells, scoreProbe(cells, families(values.stores), fns), values.all);
    return;
  }
  throw new Error("usage: excel-probe.ts write OUT.xlsx | score SAVED.xlsx [--only IRR,MIRR,RATE] [--stores] [--all]");
}

if (require.main === module) main();
