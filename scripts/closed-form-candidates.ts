/**
 * Scores candidate closed forms of PMT, FV, PV, NPER, IPMT, PPMT and MIRR against Excel: every cell of those functions
 * in test/host/excel-corpus/ whose arguments are cells, ranges or numbers, with the value Excel saved, evaluated by
 * each candidate from Excel's own saved inputs ("saved") and through the file's chains as the corpus test evaluates
 * them ("chain": a cell another of these computes takes the candidate's value). Counts agreement at Excel's 15 digits
 * (src/host/proof.ts) and to the bit; for MIRR also over the public samples of scripts/public-excel-samples.ts (MIRR
 * values Excel saved outside the corpus). The figures are docs/formula-engine.md's "Closed forms" paragraph.
 *
 * Run under Node 24 (`npm exec -- tsx scripts/closed-form-candidates.ts [PMT|FV|IPMT|MIRR|MIRR-ROUNDING [rows]]`; the last
 * is MIRR rounded as a compiler may leave it, scripts/mirr-rounding-candidates.ts, not run by default): V8's `**` differs
 * between versions, and so do the engine's digits where it uses it.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { LeftForExcelSignal } from "../src/host/left-for-excel";
import { sameValue } from "../src/host/proof";
import { arrayOf } from "../src/host/value-array";
import { FINANCE, excelPower } from "../src/host/worksheet-finance";
import { WorkbookPackage } from "../src/xlsx/package";
import { savedCellOf } from "../src/xlsx/saved-values";
import { type BookCells, readWorkbookFile } from "../src/xlsx/workbook-file";
import { mirrRoundingCandidates, rootOffsets } from "./mirr-rounding-candidates";
import { PUBLIC_MIRR, doubleOf } from "./public-excel-samples";

const CORPUS = join(__dirname, "..", "test", "host", "excel-corpus");
const FUNCTIONS = ["PMT", "FV", "PV", "NPER", "IPMT", "PPMT", "MIRR"] as const;
type Fn = (typeof FUNCTIONS)[number];
export type Result = number | "error";
/** A candidate: for each function it replaces, its value from the arguments (MIRR: flows, finance rate, reinvestment rate). */
export type Candidate = Partial<Record<Exclude<Fn, "MIRR">, (a: readonly number[]) => Result>> & { MIRR?: (flows: readonly number[], f: number, r: number) => Result };

export interface Cell {
  readonly key: string;
  readonly file: string;
  readonly fn: Fn;
  /** Each argument: Excel's saved value (a range as its numbers), and the key of the cell it names, if any. */
  readonly args: readonly { readonly saved: number | number[]; readonly from?: string }[];
  readonly excel: number;
}

const ARITY: Record<Exclude<Fn, "MIRR">, number> = { PMT: 5, FV: 5, PV: 5, NPER: 5, IPMT: 6, PPMT: 6 };
const REF = /^\$?([A-Z]{1,3})\$?(\d+)$/i;

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((total, letter) => total * 26 + letter.charCodeAt(0) - 64, 0);
}

function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Every cell of the seven functions whose arguments the script can read, with Excel's saved value a number. */
export function corpusCells(): Cell[] {
  const cells: Cell[] = [];
  for (const file of readdirSync(CORPUS).filter((name) => name.endsWith(".xlsx")).sort()) {
    const path = join(CORPUS, file);
    const workbook = readWorkbookFile(path, () => undefined, WorkbookPackage.read(path), { formulas: "every formula" });
    for (const { name, book } of workbook.sheets) {
      const sources = workbook.formulas.get(name);
      // the runner's book of a sheet: its cells' literals by address (formulas as their text)
      const literals = (book as { cells?: BookCells }).cells ?? {};
      const valueAt = (address: string): unknown => {
        const source = sources?.get(address);
        return savedCellOf(source !== undefined ? source.saved : literals[address]) ?? null;
      };
      const asNumber = (value: unknown): number | undefined => (value === null ? 0 : typeof value === "number" ? value : typeof value === "boolean" ? Number(value) : undefined);
      for (const [address, source] of sources ?? []) {
        const match = /^(PMT|FV|PV|NPER|IPMT|PPMT|MIRR)\((.*)\)$/i.exec(source.text.replace(/^=/, ""));
        const excel = savedCellOf(source.saved);
        if (!match?.[1] || match[2] === undefined || typeof excel !== "number") continue;
        const args: { saved: number | number[]; from?: string }[] = [];
        for (const text of match[2].split(",").map((part) => part.trim())) {
          const ref = REF.exec(text);
          const range = /^(\$?[A-Z]{1,3}\$?\d+):(\$?[A-Z]{1,3}\$?\d+)$/i.exec(text);
          const divided = /^(\$?[A-Z]{1,3}\$?\d+)\/(\d+)$/.exec(text);
          if (text === "") args.push({ saved: 0 });
          else if (/^-?[\d.]+(E-?\d+)?$/i.test(text)) args.push({ saved: Number(text) });
          else if (/^(TRUE|FALSE)$/i.test(text)) args.push({ saved: /^TRUE$/i.test(text) ? 1 : 0 });
          else if (ref?.[1] && ref[2]) {
            const at = `${ref[1].toUpperCase()}${ref[2]}`;
            const saved = asNumber(valueAt(at));
            if (saved === undefined) break;
            args.push({ saved, from: `${file} ${name}!${at}` });
          } else if (divided?.[1] && divided[2]) {
            // a monthly rate written as the yearly one over 12 (docs__FV.xlsx, docs__PV.xlsx)
            const saved = asNumber(valueAt(divided[1].replace(/\$/g, "").toUpperCase()));
            if (saved === undefined) break;
            args.push({ saved: saved / Number(divided[2]) });
          } else if (range?.[1] && range[2]) {
            const [first, last] = [REF.exec(range[1]), REF.exec(range[2])];
            if (!first?.[1] || !first[2] || !last?.[1] || !last[2]) break;
            const flows: number[] = [];
            for (let row = Number(first[2]); row <= Number(last[2]); row += 1) {
              for (let column = columnNumber(first[1]); column <= columnNumber(last[1]); column += 1) {
                const value = valueAt(`${columnLetters(column)}${row}`);
                if (typeof value === "number") flows.push(value);
              }
            }
            args.push({ saved: flows });
          } else break;
        }
        if (args.length === match[2].split(",").length) cells.push({ key: `${file} ${name}!${address}`, file, fn: match[1].toUpperCase() as Fn, args, excel });
      }
    }
  }
  return cells;
}

const ENV = { dateSystem: "1900", at: { row: 0, col: 0 } } as const;

/** Today's engine: the worksheet functions themselves. */
function engine(fn: Fn, args: readonly (number | number[])[]): Result {
  const spec = FINANCE[fn];
  if (spec === undefined) return "error";
  try {
    const value = spec.run(fn === "MIRR" ? [arrayOf([args[0] as number[]]), args[1] as number, args[2] as number] : (args as number[]), ENV as never);
    return typeof value === "number" ? value : "error";
  } catch (error) {
    // a value the engine leaves for Excel (input-sensitivity.ts) is not Excel's: counted as not agreeing
    if (error instanceof LeftForExcelSignal) return "error";
    throw error;
  }
}

function evaluate(cells: readonly Cell[], candidate: Candidate, mode: "saved" | "chain"): Map<string, Result> {
  const byKey = new Map(cells.map((cell) => [cell.key, cell]));
  const values = new Map<string, Result>();
  const valueOf = (cell: Cell): Result => {
    const known = values.get(cell.key);
    if (known !== undefined) return known;
    const args = cell.args.map(({ saved, from }) => {
      const upstream = mode === "chain" && from !== undefined ? byKey.get(from) : undefined;
      return upstream === undefined ? saved : valueOf(upstream);
    });
    let value: Result;
    if (args.includes("error")) value = "error";
    else if (cell.fn === "MIRR") {
      const [flows, f, r] = args as [number[], number?, number?];
      value = candidate.MIRR ? candidate.MIRR(flows, f ?? 0, r ?? 0) : engine("MIRR", args as number[]);
    } else {
      const numbers = [...(args as number[])];
      while (numbers.length < ARITY[cell.fn]) numbers.push(0);
      numbers[ARITY[cell.fn] - 1] = numbers[ARITY[cell.fn] - 1] !== 0 ? 1 : 0;
      const own = candidate[cell.fn];
      value = own ? own(numbers) : engine(cell.fn, numbers);
    }
    values.set(cell.key, value);
    return value;
  };
  for (const cell of cells) valueOf(cell);
  return values;
}

interface Score {
  agree: number;
  bits: number;
  /** Cells today's engine gets right and the candidate does not. */
  lost: number;
  /** Cells the candidate gets right and today's engine does not. */
  won: number;
}

const agrees = (value: Result | undefined, excel: number): boolean => typeof value === "number" && sameValue(value, excel);

/** Agreement over the cells of `fns` (every function when omitted), against today's engine. */
const todays = new Map<string, Map<string, Result>>();

function score(cells: readonly Cell[], candidate: Candidate, mode: "saved" | "chain", fns?: readonly Fn[]): Score {
  const today = todays.get(mode) ?? evaluate(cells, {}, mode);
  todays.set(mode, today);
  const values = evaluate(cells, candidate, mode);
  const result: Score = { agree: 0, bits: 0, lost: 0, won: 0 };
  for (const cell of cells) {
    if (fns && !fns.includes(cell.fn)) continue;
    const [now, before] = [agrees(values.get(cell.key), cell.excel), agrees(today.get(cell.key), cell.excel)];
    result.agree += Number(now);
    result.bits += Number(values.get(cell.key) === cell.excel);
    result.lost += Number(before && !now);
    result.won += Number(now && !before);
  }
  return result;
}

// ---- the candidates ----

type Power = (rate: number, periods: number) => number;
const POWERS: Record<string, Power> = {
  "squaring, lowest bit first": (r, n) => excelPower(1 + r, n),
  "squaring, highest bit first": (r, n) => {
    if (!Number.isInteger(n)) return (1 + r) ** n;
    let result = 1;
    for (let bit = Math.floor(Math.log2(Math.abs(n) || 1)); bit >= 0; bit -= 1) result = Math.floor(Math.abs(n) / 2 ** bit) % 2 === 1 ? result * result * (1 + r) : result * result;
    return n < 0 ? 1 / result : result;
  },
  "running product": (r, n) => {
    if (!Number.isInteger(n)) return (1 + r) ** n;
    let result = 1;
    for (let i = 0; i < Math.abs(n); i += 1) result *= 1 + r;
    return n < 0 ? 1 / result : result;
  },
  "**": (r, n) => (1 + r) ** n,
  "exp(n*log1p(r))": (r, n) => Math.exp(n * Math.log1p(r)),
  "exp(n*log(1+r))": (r, n) => Math.exp(n * Math.log(1 + r)),
};

/** PMT's arrangements: g is (1+r)^n, m is g-1, t the type. */
const PMT_FORMS: Record<string, (r: number, g: number, m: number, pv: number, fv: number, t: number) => number> = {
  "-((pv*r*g)/m + (fv*r)/m)/(1+r*t) (today)": (r, g, m, pv, fv, t) => -((pv * r * g) / m + (fv * r) / m) / (1 + r * t),
  "-((pv*g+fv)*r)/((1+r*t)*m)": (r, g, m, pv, fv, t) => -((pv * g + fv) * r) / ((1 + r * t) * m),
  "-((pv*g+fv)*r)/m/(1+r*t)": (r, g, m, pv, fv, t) => -((pv * g + fv) * r) / m / (1 + r * t),
  "-((pv+(pv+fv)/m)*r)/(1+r*t)": (r, g, m, pv, fv, t) => -((pv + (pv + fv) / m) * r) / (1 + r * t),
  "-(pv*r+((pv+fv)*r)/m)/(1+r*t)": (r, g, m, pv, fv, t) => -(pv * r + ((pv + fv) * r) / m) / (1 + r * t),
  "-((pv*r)/(1-1/g)+(fv*r)/m)/(1+r*t)": (r, g, m, pv, fv, t) => -((pv * r) / (1 - 1 / g) + (fv * r) / m) / (1 + r * t),
  "-((pv+fv/g)*r)/(1-1/g)/(1+r*t)": (r, g, m, pv, fv, t) => -((pv + fv / g) * r) / (1 - 1 / g) / (1 + r * t),
  "-(pv*g+fv)/((1+r*t)*(m/r))": (r, g, m, pv, fv, t) => -(pv * g + fv) / ((1 + r * t) * (m / r)),
  "-(pv*g+fv)/(((1+r*t)*m)/r)": (r, g, m, pv, fv, t) => -(pv * g + fv) / (((1 + r * t) * m) / r),
  "-(((pv*g+fv)/m)*r)/(1+r*t)": (r, g, m, pv, fv, t) => -(((pv * g + fv) / m) * r) / (1 + r * t),
  "-((pv*g+fv)/(m/r))/(1+r*t)": (r, g, m, pv, fv, t) => -((pv * g + fv) / (m / r)) / (1 + r * t),
  "-(pv*g+fv)*(r/m)/(1+r*t)": (r, g, m, pv, fv, t) => (-(pv * g + fv) * (r / m)) / (1 + r * t),
};

function pmtCandidates(): Record<string, Candidate> {
  const candidates: Record<string, Candidate> = {};
  for (const [powerName, power] of Object.entries(POWERS)) {
    for (const [formName, form] of Object.entries(PMT_FORMS)) {
      for (const expm1 of [false, true]) {
        candidates[`${formName}, ${powerName}${expm1 ? ", g-1 by expm1" : ""}`] = {
          PMT: ([r = 0, n = 0, pv = 0, fv = 0, t = 0]) => {
            if (n === 0 || r <= -1) return "error";
            if (r === 0) return -(pv + fv) / n;
            const g = power(r, n);
            return form(r, g, expm1 ? Math.expm1(n * Math.log1p(r)) : g - 1, pv, fv, t);
          },
        };
      }
    }
  }
  return candidates;
}

function fvCandidates(): Record<string, Candidate> {
  const orders: Record<string, (r: number, g: number, m: number, pmt: number, pv: number, t: number) => number> = {
    "-(pv*g + pmt*(1+r*t)*(m/r)) (today)": (r, g, m, pmt, pv, t) => -(pv * g + pmt * (1 + r * t) * (m / r)),
    "-(pv*g + (pmt*(1+r*t)*m)/r)": (r, g, m, pmt, pv, t) => -(pv * g + (pmt * (1 + r * t) * m) / r),
    "-(pv*g + ((pmt*(1+r*t))/r)*m)": (r, g, m, pmt, pv, t) => -(pv * g + ((pmt * (1 + r * t)) / r) * m),
    "-((pv + (pmt*(1+r*t))/r)*g - (pmt*(1+r*t))/r)": (r, g, m, pmt, pv, t) => -((pv + (pmt * (1 + r * t)) / r) * g - (pmt * (1 + r * t)) / r),
    "-(pv*g + pmt*((1+r*t)*m/r))": (r, g, m, pmt, pv, t) => -(pv * g + pmt * (((1 + r * t) * m) / r)),
    "-(pv*g + (m*(pmt*(1+r*t)))/r)": (r, g, m, pmt, pv, t) => -(pv * g + (m * (pmt * (1 + r * t))) / r),
  };
  const powers: Record<string, Power> = { ...POWERS, "squaring over the count rounded within 1E-9": (r, n) => (Math.abs(n - Math.round(n)) < 1e-9 ? excelPower(1 + r, Math.round(n)) : (1 + r) ** n) };
  const candidates: Record<string, Candidate> = {};
  for (const [powerName, power] of Object.entries(powers)) {
    for (const [orderName, order] of Object.entries(orders)) {
      candidates[`${orderName}, ${powerName}`] = {
        FV: ([r = 0, n = 0, pmt = 0, pv = 0, t = 0]) => {
          if (r === 0) return -(pv + pmt * n);
          const g = power(r, n);
          const value = order(r, g, g - 1, pmt, pv, t);
          return Number.isFinite(value) ? value : "error";
        },
      };
    }
  }
  return candidates;
}

/** IPMT/PPMT: the engine's before this measurement (the FV of the balance, PMT less it) and the closed forms tried. */
function ipmtCandidates(): Record<string, Candidate> {
  const log = (r: number, n: number) => n * Math.log1p(r);
  const level = (r: number, n: number, pv: number, fv: number, t: number) => (r === 0 ? -(pv + fv) / n : -((fv + pv * Math.exp(log(r, n))) * r) / ((1 + r * t) * Math.expm1(log(r, n))));
  const valid = (r: number, per: number, n: number) => per >= 1 && per < n + 1 && r > -1;
  const balanceFv = (r: number, k: number, pmt: number, pv: number, t: number) => -(pv * Math.exp(log(r, k)) + (pmt * (1 + r * t) * Math.expm1(log(r, k))) / r);
  const viaFv = (r: number, per: number, n: number, pv: number, fv: number, t: number): Result => {
    if (!valid(r, per, n)) return "error";
    if (r === 0) return 0;
    const pmt = level(r, n, pv, fv, t);
    if (per === 1) return t === 1 ? 0 : -pv * r;
    return (t === 1 ? balanceFv(r, per - 2, pmt, pv, 1) - pmt : balanceFv(r, per - 1, pmt, pv, 0)) * r;
  };
  const principal = (r: number, per: number, n: number, pv: number, fv: number, t: number): Result => {
    if (!valid(r, per, n)) return "error";
    if (r === 0) return -(pv + fv) / n;
    if (t === 1 && per === 1) return level(r, n, pv, fv, 1);
    return (-(pv + fv) * (r / Math.expm1(log(r, n))) * Math.exp(log(r, per - 1))) / (t === 1 ? 1 + r : 1);
  };
  const interest = (share: (r: number, j: number, n: number, pv: number, fv: number) => number) => ([r = 0, per = 0, n = 0, pv = 0, fv = 0, t = 0]: readonly number[]): Result => {
    if (!valid(r, per, n)) return "error";
    if (r === 0) return 0;
    if (per === 1) return t === 1 ? 0 : -pv * r;
    return (-r * share(r, per - 1, n, pv, fv)) / (t === 1 ? 1 + r : 1);
  };
  const ppmt = ([r = 0, per = 0, n = 0, pv = 0, fv = 0, t = 0]: readonly number[]) => principal(r, per, n, pv, fv, t);
  return {
    "IPMT: r times the FV of the balance; PPMT: PMT less IPMT (before)": {
      IPMT: ([r = 0, per = 0, n = 0, pv = 0, fv = 0, t = 0]) => viaFv(r, per, n, pv, fv, t),
      PPMT: ([r = 0, per = 0, n = 0, pv = 0, fv = 0, t = 0]) => {
        const i = viaFv(r, per, n, pv, fv, t);
        return i === "error" ? i : level(r, n, pv, fv, t) - i;
      },
    },
    "IPMT: PMT less the PPMT below; PPMT: the first principal grown": {
      IPMT: ([r = 0, per = 0, n = 0, pv = 0, fv = 0, t = 0]) => {
        const p = principal(r, per, n, pv, fv, t);
        if (p === "error" || r === 0) return p === "error" ? p : 0;
        return per === 1 ? (t === 1 ? 0 : -pv * r) : level(r, n, pv, fv, t) - p;
      },
      PPMT: ppmt,
    },
    "IPMT: r times pv*g_j*((1+r)^(n-j)-1)/((1+r)^n-1) less fv's share; PPMT: the first principal grown": {
      IPMT: interest((r, j, n, pv, fv) => (pv * Math.exp(log(r, j)) * Math.expm1(log(r, n - j)) - fv * Math.expm1(log(r, j))) / Math.expm1(log(r, n))),
      PPMT: ppmt,
    },
    "IPMT: r times pv - (pv+fv)*((1+r)^j-1)/((1+r)^n-1); PPMT: the first principal grown (today)": {
      IPMT: interest((r, j, n, pv, fv) => pv - (pv + fv) * (Math.expm1(log(r, j)) / Math.expm1(log(r, n)))),
      PPMT: ppmt,
    },
  };
}

type Flows = (flows: readonly number[], rate: number, power: Power) => number;
const MIRR_GAINS: Record<string, Flows> = {
  "x/(1+r)^i": (xs, r, p) => xs.reduce((t, x, i) => (x > 0 ? t + x / p(r, i) : t), 0),
  "x*(1+r)^-i": (xs, r, p) => xs.reduce((t, x, i) => (x > 0 ? t + x * p(r, -i) : t), 0),
  "running quotient": (xs, r) => xs.reduce((t, x, i) => (x > 0 ? t + x * xs.slice(0, i).reduce((d) => d / (1 + r), 1) : t), 0),
  "running product, divided": (xs, r) => xs.reduce((t, x, i) => (x > 0 ? t + x / xs.slice(0, i).reduce((d) => d * (1 + r), 1) : t), 0),
  Horner: (xs, r) => xs.reduceRight((t, x) => t / (1 + r) + (x > 0 ? x : 0), 0),
};
const MIRR_COSTS: Record<string, Flows> = {
  "x/(1+f)^i": (xs, f, p) => xs.reduce((t, x, i) => (x < 0 ? t + x / p(f, i) : t), 0),
  "x*(1+f)^-i": (xs, f, p) => xs.reduce((t, x, i) => (x < 0 ? t + x * p(f, -i) : t), 0),
  "running quotient": (xs, f) => xs.reduce((t, x, i) => (x < 0 ? t + x * xs.slice(0, i).reduce((d) => d / (1 + f), 1) : t), 0),
  "running product, divided": (xs, f) => xs.reduce((t, x, i) => (x < 0 ? t + x / xs.slice(0, i).reduce((d) => d * (1 + f), 1) : t), 0),
};
const MIRR_ROOTS: Record<string, (x: number, k: number) => number> = { "**(1/k)": (x, k) => x ** (1 / k), "exp(log(x)/k)": (x, k) => Math.exp(Math.log(x) / k), "exp(log(x)*(1/k)) (today)": (x, k) => Math.exp(Math.log(x) * (1 / k)) };

export function mirrCandidates(): Record<string, Candidate> {
  const powers: Record<string, Power> = {
    "**": (r, n) => (1 + r) ** n,
    squaring: (r, n) => excelPower(1 + r, n),
    "exp(n*log1p(r))": (r, n) => Math.exp(n * Math.log1p(r)),
    "exp(n*log(1+r))": (r, n) => Math.exp(n * Math.log(1 + r)),
  };
  const candidates: Record<string, Candidate> = {};
  for (const [powerName, power] of Object.entries(powers)) {
    for (const [gainsName, gains] of Object.entries(MIRR_GAINS)) {
      for (const [costsName, costs] of Object.entries(MIRR_COSTS)) {
        for (const [compoundName, compound] of Object.entries({ "**": (r: number, k: number) => (1 + r) ** k, squaring: (r: number, k: number) => excelPower(1 + r, k), same: power })) {
          for (const order of ["(g*c)/-k", "(g/-k)*c", "g*(c/-k)"]) {
            for (const [rootName, root] of Object.entries(MIRR_ROOTS)) {
              candidates[`${powerName} powers, gains ${gainsName}, costs ${costsName}, compounded by ${compoundName}, ${order}, root ${rootName}`] = {
                MIRR: (flows, f, r) => {
                  const n = flows.length;
                  const cost = costs(flows, f, power);
                  if (cost === 0 || n < 2 || !Number.isFinite(cost)) return "error";
                  const [g, c] = [gains(flows, r, power), compound(r, n - 1)];
                  const ratio = order === "(g*c)/-k" ? (g * c) / -cost : order === "(g/-k)*c" ? (g / -cost) * c : g * (c / -cost);
                  const value = root(ratio, n - 1) - 1;
                  return Number.isFinite(value) ? value : "error";
                },
              };
            }
          }
        }
      }
    }
  }
  // Microsoft's documented form: NPV(rrate, gains) * (1+rrate)^n over NPV(frate, costs) * (1+frate), each NPV from period 1
  for (const [powerName, power] of Object.entries(powers)) {
    for (const [compoundName, compound] of Object.entries({ "**": (r: number, k: number) => (1 + r) ** k, squaring: (r: number, k: number) => excelPower(1 + r, k), same: power })) {
      for (const [rootName, root] of Object.entries(MIRR_ROOTS)) {
        candidates[`Microsoft's NPV form, ${powerName} powers, compounded by ${compoundName}, root ${rootName}`] = {
          MIRR: (flows, f, r) => {
            const n = flows.length;
            const cost = flows.reduce((t, x, i) => (x < 0 ? t + x / power(f, i + 1) : t), 0) * (1 + f);
            if (cost === 0 || n < 2 || !Number.isFinite(cost)) return "error";
            const gain = flows.reduce((t, x, i) => (x > 0 ? t + x / power(r, i + 1) : t), 0) * compound(r, n);
            const value = root(gain / -cost, n - 1) - 1;
            return Number.isFinite(value) ? value : "error";
          },
        };
      }
    }
  }
  return candidates;
}

/** A candidate's MIRR over the public samples: how many agree at 15 digits, and to the bit. */
function publicMirr(candidate: Candidate): { agree: number; bits: number } {
  const values = PUBLIC_MIRR.map(({ inputs, bits }) => {
    const [flows, [finance = 0, reinvest = 0]] = [inputs.slice(0, -2), inputs.slice(-2)];
    return { value: candidate.MIRR ? candidate.MIRR(flows, finance, reinvest) : engine("MIRR", [flows, finance, reinvest]), excel: doubleOf(bits) };
  });
  return { agree: values.filter(({ value, excel }) => agrees(value, excel)).length, bits: values.filter(({ value, excel }) => value === excel).length };
}

function report(title: string, cells: readonly Cell[], candidates: Record<string, Candidate>, fns: readonly Fn[], top: number): void {
  const rows = Object.entries(candidates).map(([name, candidate]) => ({ name, chain: score(cells, candidate, "chain"), own: score(cells, candidate, "chain", fns), saved: score(cells, candidate, "saved", fns), extra: fns.includes("MIRR") ? publicMirr(candidate) : undefined }));
  rows.sort((a, b) => b.chain.agree - a.chain.agree || a.chain.lost - b.chain.lost || b.own.bits - a.own.bits);
  const total = cells.filter((cell) => fns.includes(cell.fn)).length;
  process.stdout.write(`\n${title}: ${Object.keys(candidates).length} candidates over ${total} cells (${fns.join(", ")}); best ${top} by agreement over all ${cells.length} cells through the chains\n`);
  const publicPart = (extra: { agree: number; bits: number } | undefined) => (extra ? `; public ${extra.agree}/${PUBLIC_MIRR.length} (${extra.bits})` : "");
  const line = ({ name, chain, own, saved, extra }: (typeof rows)[number]) => `${own.agree}/${total} agree (${own.bits} to the bit) through the chains, ${saved.agree} (${saved.bits}) from Excel's inputs; all functions ${chain.agree} (+${chain.won} -${chain.lost})${publicPart(extra)}: ${name}`;
  for (const row of rows.slice(0, top)) process.stdout.write(`  ${line(row)}\n`);
  const mostBits = [...rows].sort((a, b) => b.own.bits - a.own.bits || b.chain.agree - a.chain.agree)[0];
  if (mostBits) process.stdout.write(`  most to the bit: ${line(mostBits)}\n`);
}

/** Chooses MIRR's candidate on all sheets of a file but one (agreement, then bits) and counts its agreement on that one. */
function crossValidate(cells: readonly Cell[], candidates: Record<string, Candidate>): void {
  const mirr = cells.filter((cell) => cell.fn === "MIRR");
  const sheetOf = (cell: Cell) => cell.key.slice(0, cell.key.lastIndexOf("!"));
  const counts = (values: Map<string, Result>, set: readonly Cell[]) => [set.filter((cell) => agrees(values.get(cell.key), cell.excel)).length, set.filter((cell) => values.get(cell.key) === cell.excel).length] as const;
  const evaluated = Object.entries(candidates).map(([name, candidate]) => ({ name, values: evaluate(mirr, candidate, "saved") }));
  const today = evaluate(mirr, {}, "saved");
  for (const sheet of new Set(mirr.map(sheetOf))) {
    const [train, test] = [mirr.filter((cell) => sheetOf(cell) !== sheet), mirr.filter((cell) => sheetOf(cell) === sheet)];
    const best = evaluated.map(({ name, values }) => ({ name, train: counts(values, train), test: counts(values, test) })).sort((a, b) => b.train[0] - a.train[0] || b.train[1] - a.train[1])[0];
    if (best) process.stdout.write(`  MIRR chosen without ${sheet} (${train.length} cells): agrees on ${best.test[0]} of its ${test.length} (today's ${counts(today, test)[0]}): ${best.name}\n`);
  }
}

// imported by scripts/excel-probe.ts for its candidates: the report only when run itself
if (require.main === module) {
  const cells = corpusCells();
  const only = process.argv[2]?.toUpperCase();
  const today = score(cells, {}, "chain");
  process.stdout.write(`${cells.length} cells; today's engine agrees on ${today.agree} through the chains (${today.bits} to the bit)\n`);
  if (!only || only === "IPMT" || only === "PPMT") report("IPMT/PPMT", cells, ipmtCandidates(), ["IPMT", "PPMT"], 4);
  if (!only || only === "PMT") report("PMT", cells, pmtCandidates(), ["PMT"], 8);
  if (!only || only === "FV") report("FV", cells, fvCandidates(), ["FV"], 6);
  if (!only || only === "MIRR") {
    report("MIRR", cells, mirrCandidates(), ["MIRR"], 8);
    crossValidate(cells, mirrCandidates());
  }
  if (only === "MIRR-ROUNDING") report("MIRR rounded otherwise (fused multiply-add, x87's 64 bits, the correctly rounded root)", cells, mirrRoundingCandidates(), ["MIRR"], Number(process.argv[3] ?? 12));
  if (only === "MIRR-ROUNDING") {
    const mirr = cells.filter((cell) => cell.fn === "MIRR").map(({ args: [flows, finance, reinvest], excel }) => ({ flows: [flows?.saved ?? []].flat(), finance: Number(finance?.saved ?? 0), reinvest: Number(reinvest?.saved ?? 0), excel }));
    process.stdout.write(`  Excel's MIRR from the correctly rounded root of today's ratio, in units of its last place (from Excel's inputs): ${[...rootOffsets(mirr)].map(([offset, count]) => `${offset}: ${String(count)}`).join(", ")}\n`);
  }
}
