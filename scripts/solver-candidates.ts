/**
 * Which search path gives Excel's own IRR, RATE and XIRR digits: every IRR, RATE and XIRR cell of the Excel-written
 * corpus (test/host/excel-corpus, its inputs from the values Excel saved) solved by each candidate path, and the number
 * of Excel's values each gives to 15 digits (Excel's comparison, src/host/proof.ts), with the ones it misses of those
 * the first candidate (Newton's method) gives, and today's IRR path with its roundings as a compiler may leave them
 * (fused multiply-adds, x87's 64 bits: scripts/exact-rounding.ts); for XIRR, whether any iterate of a path does (so every stop rule is
 * tried at once) and the most digits one reaches. After the bar, the same counts over IRR and RATE values Excel saved in
 * public files (scripts/public-excel-samples.ts). docs/formula-engine.md ("The iterative solvers") reports the result.
 *   npx tsx scripts/solver-candidates.ts [IRR-STORES]   (the second: only IRR in x87's 64 bits, every choice of stores)
 */
import { join } from "node:path";
import { columnIndex, formatCellAddress, parseCellAddress } from "../src/formula/a1";
import { sameValue } from "../src/host/proof";
import { excelPower } from "../src/host/worksheet-finance";
import { WorkbookPackage } from "../src/xlsx/package";
import { readWorkbookFile } from "../src/xlsx/workbook-file";
import { CORPUS } from "../test/host/excel-corpus";
import { type Binary, EXTENDED_BITS, arithmetic, fma } from "./exact-rounding";
import { PUBLIC_IRR, PUBLIC_RATE, type PublicSample, doubleOf } from "./public-excel-samples";

export interface SolverCell {
  readonly at: string;
  readonly excel: number;
  /** IRR: the cash flows and the guess; RATE: nper, pmt, pv, fv, type and guess. */
  readonly inputs: readonly number[];
  readonly guess: number;
}

const read = (file: string) => readWorkbookFile(join(CORPUS, file), () => undefined, WorkbookPackage.read(join(CORPUS, file)), { formulas: "every formula" });
const sourcesOf = (file: string) => read(file).formulas;

/** The values Excel saved in each sheet: constants and formulas' cached values by address. */
function savedValues(file: string): Map<string, Map<string, unknown>> {
  const workbook = read(file);
  const sheets = new Map<string, Map<string, unknown>>();
  for (const { name, book } of workbook.sheets) {
    const values = new Map<string, unknown>(Object.entries((book as unknown as { cells: Record<string, unknown> }).cells));
    for (const [address, source] of workbook.formulas.get(name) ?? []) values.set(address, source.saved);
    sheets.set(name, values);
  }
  return sheets;
}

/** The values of a reference (`A2:F2` or `B7`), row by row, as Excel saved them. */
function referenced(values: Map<string, unknown>, reference: string): unknown[] {
  const [first = "", last = first] = reference.split(":");
  const [from, to] = [parseCellAddress(first), parseCellAddress(last)];
  const cells: unknown[] = [];
  if (from === undefined || to === undefined) return cells;
  for (let row = from.row; row <= to.row; row += 1) {
    for (let col = from.col; col <= to.col; col += 1) cells.push(values.get(formatCellAddress({ row, col })));
  }
  return cells;
}

const asNumber = (value: unknown): number => (typeof value === "number" ? value : value === true ? 1 : 0);

/** Every IRR or RATE cell whose saved value is a number, with its inputs. */
export function solverCells(file: string, name: "IRR" | "RATE"): SolverCell[] {
  const cells: SolverCell[] = [];
  for (const [sheet, values] of savedValues(file)) {
    for (const [address, source] of sourcesOf(file).get(sheet) ?? []) {
      const call = new RegExp(`^${name}\\(([^()]*)\\)$`).exec(source.text);
      if (call?.[1] === undefined || typeof source.saved !== "number") continue;
      const args = call[1].split(",").map((arg) => arg.trim());
      if (args.some((arg) => !/^[A-Z]+\d+(:[A-Z]+\d+)?$/.test(arg) || columnIndex(arg.replace(/\d.*$/, "")) < 0)) continue;
      const at = `${sheet}!${address}`;
      if (name === "IRR") {
        const flows = referenced(values, args[0] ?? "").filter((value): value is number => typeof value === "number");
        const guess = args[1] === undefined ? 0.1 : asNumber(referenced(values, args[1])[0]);
        if (typeof referenced(values, args[1] ?? "A1")[0] !== "string") cells.push({ at, excel: source.saved, inputs: flows, guess });
      } else {
        const inputs = args.map((arg) => asNumber(referenced(values, arg)[0]));
        cells.push({ at, excel: source.saved, inputs, guess: inputs[5] ?? 0.1 });
      }
    }
  }
  return cells;
}

type Step = (x0: number, f0: number, x1: number, f1: number) => number;
const weighted: Step = (x0, f0, x1, f1) => (x0 * f1 - x1 * f0) / (f1 - f0);
const corrected: Step = (x0, f0, x1, f1) => x1 - ((x1 - x0) * f1) / (f1 - f0);

/** The secant method, 40 steps at most, from `x0` and `x1`; NaN when it does not settle. */
function secant(value: (x: number) => number, x0: number, x1: number, step: Step, settled: (previous: number, next: number, at: number) => boolean, f0 = value(x0)): number {
  let [a, fa, b, fb] = [x0, f0, x1, value(x1)];
  for (let attempt = 0; attempt < 40 && fb !== fa; attempt += 1) {
    const c = step(a, fa, b, fb);
    const fc = value(c);
    if (settled(b, c, fc)) return c;
    [a, fa, b, fb] = [b, fb, c, fc];
  }
  return NaN;
}

/** Newton's method stopping on a step under 1E-7 (the engine's path before), with a step to -100% taken halfway. */
function newton(value: (x: number) => number, slope: (x: number) => number, guess: number, tries: number): number {
  let x = guess;
  for (let attempt = 0; attempt < tries; attempt += 1) {
    let next = x - value(x) / slope(x);
    if (next <= -1) next = (x - 1) / 2;
    if (Math.abs(next - x) < 1e-7) return next;
    x = next;
  }
  return NaN;
}

const npvPower = (flows: readonly number[], rate: number): number => flows.reduce((total, flow, i) => total + flow / (1 + rate) ** i, 0);
const npvSlope = (flows: readonly number[], rate: number): number => flows.reduce((total, flow, i) => total - (i * flow) / (1 + rate) ** (i + 1), 0);
const npvHorner = (flows: readonly number[], rate: number): number => flows.reduceRight((total, flow) => total * (1 / (1 + rate)) + flow, 0);
const polynomial = (flows: readonly number[], factor: number): number => flows.reduceRight((total, flow) => total * factor + flow, 0);

export type Candidate = (cell: SolverCell) => number;

/**
 * Where a secant search settles: IRR's d moved by under 1E-7 (the engine's rule before 2026-11-29), and today's, with
 * the NPV there under 1E-7 in size as well; RATE's today the same, on the rate and the annuity identity.
 */
type Settled = (previous: number, next: number, at: number) => boolean;
const dStep: Settled = (a, b) => Math.abs(b - a) < 1e-7;
const dStepAndNpv: Settled = (a, b, at) => Math.abs(b - a) < 1e-7 && Math.abs(at) < 1e-7;

export function irrCandidates(): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>([["Newton on the rate, step under 1E-7 (the engine's path before)", ({ inputs, guess }) => newton((r) => npvPower(inputs, r), (r) => npvSlope(inputs, r), guess, 20)]]);
  for (const offset of [1e-5, 1e-3]) {
    candidates.set(`secant on the rate, second point ${offset} toward the root, step under 1E-7`, ({ inputs, guess }) => secant((r) => npvPower(inputs, r), guess, npvPower(inputs, guess) > 0 ? guess + offset : guess - offset, corrected, (a, b) => Math.abs(b - a) < 1e-7));
    for (const [form, npvAtFactor] of [["NPV at 1/d-1 by Horner", (flows: readonly number[], d: number) => npvHorner(flows, 1 / d - 1)], ["polynomial in d", polynomial]] as const) {
      for (const [arrangement, step] of [["weighted", weighted], ["corrected", corrected]] as const) {
        for (const [rule, settled] of [["d step under 1E-7", dStep], ["d step and |NPV| under 1E-7", dStepAndNpv]] as const) {
          candidates.set(`secant on d=1/(1+r), ${form}, ${arrangement} step, second point d${offset > 0 ? "±" : ""}${offset}, ${rule}`, ({ inputs, guess }) => {
            const start = 1 / (1 + guess);
            const atStart = npvHorner(inputs, guess);
            return 1 / secant((d) => npvAtFactor(inputs, d), start, atStart > 0 ? start + offset : start - offset, step, settled, atStart) - 1;
          });
        }
      }
    }
  }
  return candidates;
}

/**
 * Today's IRR path (the secant on d, the NPV at 1/d-1 by Horner, the weighted step) with its roundings as a C compiler
 * may leave them: a fused multiply-add where a product feeds a sum (MSVC under /arch:AVX2), or x87's 64 bits kept
 * through an expression and rounded to a double where it is stored (scripts/exact-rounding.ts).
 */
export function irrRoundingCandidates(): Map<string, Candidate> {
  const x = arithmetic(EXTENDED_BITS);
  const one = x.of(1);
  // each step's value as x87 would hold it: a double, or 64 bits stored to a double, or 64 bits kept in its register
  const rates = new Map<string, (d: number) => Binary>([["1/d-1 in doubles", (d) => x.of(1 / d - 1)], ["1/d-1 in 64 bits", (d) => x.store(x.minus(x.over(one, x.of(d)), one))], ["1/d-1 kept in 64 bits", (d) => x.minus(x.over(one, x.of(d)), one)]]);
  const discounts = new Map<string, (rate: Binary) => Binary>([["1/(1+r) in doubles", (r) => x.of(1 / (1 + x.value(r)))], ["1/(1+r) in 64 bits", (r) => x.store(x.over(one, x.plus(one, r)))], ["1/(1+r) kept in 64 bits", (r) => x.over(one, x.plus(one, r))]]);
  const horners = new Map<string, (flows: readonly number[], d: Binary) => number>([
    ["Horner in doubles", (flows, d) => polynomial(flows, x.value(d))],
    ["Horner by fma", (flows, d) => flows.reduceRight((total, flow) => fma(total, x.value(d), flow), 0)],
    ["Horner in 64 bits", (flows, d) => x.value(flows.reduceRight((total, flow) => x.plus(x.times(total, d), x.of(flow)), x.of(0)))],
    ["Horner in 64 bits stored each step", (flows, d) => flows.reduceRight((total, flow) => x.value(x.plus(x.times(x.of(total), d), x.of(flow))), 0)],
  ]);
  const steps = new Map<string, Step>([
    ["weighted", weighted],
    ["weighted, x0*f1 fused", (x0, f0, x1, f1) => fma(x0, f1, -(x1 * f0)) / (f1 - f0)],
    ["weighted, x1*f0 fused", (x0, f0, x1, f1) => fma(-x1, f0, x0 * f1) / (f1 - f0)],
    ["weighted in 64 bits", (x0, f0, x1, f1) => x.value(x.over(x.minus(x.times(x.of(x0), x.of(f1)), x.times(x.of(x1), x.of(f0))), x.minus(x.of(f1), x.of(f0))))],
    ["corrected", corrected],
    ["corrected in 64 bits", (x0, f0, x1, f1) => x.value(x.minus(x.of(x1), x.over(x.times(x.minus(x.of(x1), x.of(x0)), x.of(f1)), x.minus(x.of(f1), x.of(f0)))))],
  ]);
  const results = new Map<string, (d: number) => number>([["result 1/d-1 in doubles", (d) => 1 / d - 1], ["result 1/d-1 in 64 bits", (d) => x.value(x.minus(x.over(one, x.of(d)), one))]]);
  const candidates = new Map<string, Candidate>();
  for (const [hornerName, horner] of horners) {
    for (const [discountName, discount] of discounts) {
      for (const [rateName, rateOf] of rates) {
        for (const [stepName, step] of steps) {
          for (const [resultName, result] of results) {
            candidates.set(`${hornerName}, ${discountName}, ${rateName}, ${stepName} step, ${resultName}`, ({ inputs, guess }) => {
              const start = 1 / (1 + guess);
              const atStart = horner(inputs, discount(x.of(guess)));
              const found = secant((d) => horner(inputs, discount(rateOf(d))), start, atStart > 0 ? start + 1e-3 : start - 1e-3, step, dStepAndNpv, atStart);
              return Number.isNaN(found) ? found : result(found);
            });
          }
        }
      }
    }
  }
  // nothing stored: every iterate, NPV and step kept in 64 bits, only the result rounded to a double
  candidates.set("everything kept in 64 bits, weighted step", ({ inputs, guess }) => {
    const npvAt = (rate: Binary): Binary => {
      const discount = x.over(one, x.plus(one, rate));
      return inputs.reduceRight((total, flow) => x.plus(x.times(total, discount), x.of(flow)), x.of(0));
    };
    const start = x.over(one, x.plus(one, x.of(guess)));
    let [d0, f0] = [start, npvAt(x.of(guess))];
    let d1 = x.plus(start, x.of(x.value(f0) > 0 ? 1e-3 : -1e-3));
    let f1 = npvAt(x.minus(x.over(one, d1), one));
    for (let attempt = 0; attempt < 40 && x.value(x.minus(f1, f0)) !== 0; attempt += 1) {
      const d2 = x.over(x.minus(x.times(d0, f1), x.times(d1, f0)), x.minus(f1, f0));
      const f2 = npvAt(x.minus(x.over(one, d2), one));
      if (dStepAndNpv(x.value(d1), x.value(d2), x.value(f2))) return x.value(x.minus(x.over(one, d2), one));
      [d0, f0, d1, f1] = [d1, f1, d2, f2];
    }
    return NaN;
  });
  return candidates;
}

/**
 * Today's IRR path in x87's 64 bits with every choice of which intermediates are stored to a double (a flag each: the
 * NPV's 1/d, rate, 1+r, discount, Horner's product and sum; the step's products or difference, numerator, denominator,
 * quotient; the result's 1/d): 3,072 paths, the iterates and NPVs between steps stored as a loop keeps them.
 */
export function irrStoreCandidates(): Map<string, Candidate> {
  const x = arithmetic(EXTENDED_BITS);
  const one = x.of(1);
  const kept = (flag: boolean, value: Binary): Binary => (flag ? x.store(value) : value);
  const candidates = new Map<string, Candidate>();
  for (let flags = 0; flags < 2 ** 11; flags += 1) {
    const bit = (index: number): boolean => ((flags >> index) & 1) === 1;
    const npv = (flows: readonly number[], rate: Binary): number => {
      const discount = kept(bit(2), x.over(one, kept(bit(1), x.plus(one, rate))));
      return x.value(flows.reduceRight((total, flow) => kept(bit(4), x.plus(kept(bit(3), x.times(total, discount)), x.of(flow))), x.of(0)));
    };
    const rateAt = (d: number): Binary => kept(bit(6), x.minus(kept(bit(5), x.over(one, x.of(d))), one));
    const steps: [string, Step][] = [
      ["weighted", (x0, f0, x1, f1) => x.value(x.over(kept(bit(8), x.minus(kept(bit(7), x.times(x.of(x0), x.of(f1))), kept(bit(7), x.times(x.of(x1), x.of(f0))))), kept(bit(9), x.minus(x.of(f1), x.of(f0)))))],
      ["corrected", (x0, f0, x1, f1) => x.value(x.minus(x.of(x1), kept(bit(10), x.over(kept(bit(8), x.times(kept(bit(7), x.minus(x.of(x1), x.of(x0))), x.of(f1))), kept(bit(9), x.minus(x.of(f1), x.of(f0)))))))],
    ];
    for (const [stepName, step] of steps) {
      if (stepName === "weighted" && bit(10)) continue;
      candidates.set(`${stepName}, stores ${flags.toString(2).padStart(11, "0")}`, ({ inputs, guess }) => {
        const start = 1 / (1 + guess);
        const atStart = npv(inputs, x.of(guess));
        const found = secant((d) => npv(inputs, rateAt(d)), start, atStart > 0 ? start + 1e-3 : start - 1e-3, step, dStepAndNpv, atStart);
        return Number.isNaN(found) ? found : x.value(x.minus(kept(bit(0), x.over(one, x.of(found))), one));
      });
    }
  }
  return candidates;
}

export function rateCandidates(): Map<string, Candidate> {
  const identity = (power: (base: number, exponent: number) => number, [n = 0, pmt = 0, pv = 0, fv = 0, type = 0]: readonly number[]) => (r: number) => {
    if (r === 0) return pv + pmt * n + fv;
    const growth = power(1 + r, n);
    return pv * growth + pmt * (1 + r * (type === 0 ? 0 : 1)) * ((growth - 1) / r) + fv;
  };
  const slope = (inputs: readonly number[]) => (r: number) => (identity((b, e) => b ** e, inputs)(r + 1e-7) - identity((b, e) => b ** e, inputs)(r - 1e-7)) / 2e-7;
  const candidates = new Map<string, Candidate>([["Newton on the rate, central-difference slope, step under 1E-7", ({ inputs, guess }) => newton(identity((b, e) => b ** e, inputs), slope(inputs), guess, 50)]]);
  for (const [powerName, power] of [["plain power", (b: number, e: number) => b ** e], ["power by squaring", excelPower]] as const) {
    for (const [second, beside] of [["0.001 below when positive", (g: number, y: number) => (y > 0 ? g - 0.001 : g + 0.001)], ["half or double (VBA's Rate)", (g: number, y: number) => (y > 0 ? g / 2 : g * 2)]] as const) {
      for (const [arrangement, step] of [["corrected", corrected], ["weighted", weighted]] as const) {
        for (const [rule, settled] of [["|identity| under 1E-7", (_a: number, _b: number, at: number) => Math.abs(at) < 1e-7], ["|identity| and rate step under 1E-7 (today's)", dStepAndNpv]] as const) {
          candidates.set(`secant on the rate, ${powerName}, second point ${second}, ${arrangement} step, ${rule}`, ({ inputs, guess }) => {
            const value = identity(power, inputs);
            return secant(value, guess, beside(guess, value(guess)), step, settled);
          });
        }
      }
    }
  }
  return candidates;
}

/**
 * Each candidate's count of Excel's values at 15 digits (and to the bit), with the ones it misses of those the first
 * candidate gives; then the same over the public samples (scripts/public-excel-samples.ts), when given.
 */
function report(title: string, cells: readonly SolverCell[], candidates: Map<string, Candidate>, first = "Newton's", samples: readonly SolverCell[] = []): void {
  const [baseline] = [...candidates.values()];
  const all = [...cells, ...samples];
  const before = new Set(all.filter((cell) => baseline !== undefined && sameValue(baseline(cell), cell.excel)).map((cell) => cell.at));
  process.stdout.write(`${title}: ${cells.length} cells${samples.length > 0 ? `, and ${samples.length} public samples after the bar` : ""}\n`);
  const counts = (subset: readonly SolverCell[], values: Map<string, number>): string => {
    const agree = subset.filter((cell) => sameValue(values.get(cell.at) ?? NaN, cell.excel)).length;
    const bits = subset.filter((cell) => values.get(cell.at) === cell.excel).length;
    return `${String(agree).padStart(3)} (${String(bits).padStart(2)} to the bit)`;
  };
  for (const [name, candidate] of candidates) {
    const values = new Map(all.map((cell) => [cell.at, candidate(cell)]));
    const agree = all.filter((cell) => sameValue(values.get(cell.at) ?? NaN, cell.excel));
    const lost = [...before].filter((at) => !agree.some((cell) => cell.at === at));
    const won = agree.filter((cell) => !before.has(cell.at)).map((cell) => cell.at);
    const bar = samples.length > 0 ? ` | ${counts(samples, values)}` : "";
    process.stdout.write(`  ${counts(cells, values)}${bar}  ${name}${won.length > 0 ? ` (gains ${won.join(", ")})` : ""}${lost.length > 0 ? ` (misses, of ${first}: ${lost.join(", ")})` : ""}\n`);
  }
}

/** Every numeric XIRR cell of FINANCIAL__XIRR.xlsx: its flows (a blank 0, as Excel's XIRR counts it) and years from the first date. */
function xirrCells(): { at: string; excel: number; flows: number[]; years: number[] }[] {
  const file = "FINANCIAL__XIRR.xlsx";
  const cells: { at: string; excel: number; flows: number[]; years: number[] }[] = [];
  for (const [sheet, values] of savedValues(file)) {
    for (const [address, source] of sourcesOf(file).get(sheet) ?? []) {
      const [flows = "", dates = ""] = /^XIRR\(([A-Z]+\d+:[A-Z]+\d+),([A-Z]+\d+:[A-Z]+\d+)\)$/.exec(source.text)?.slice(1) ?? [];
      if (flows === "" || typeof source.saved !== "number") continue;
      const days = referenced(values, dates).map((day) => Math.floor(asNumber(day)));
      cells.push({ at: `${sheet}!${address}`, excel: source.saved, flows: referenced(values, flows).map(asNumber), years: days.map((day) => (day - (days[0] ?? 0)) / 365) });
    }
  }
  return cells;
}

/** Excel's 15-digit agreement: how many leading significant digits two numbers share. */
const sharedDigits = (a: number, b: number): number => [...Array(15).keys()].map((index) => 15 - index).find((digits) => a.toPrecision(digits) === b.toPrecision(digits)) ?? 0;

/**
 * XIRR's candidate paths from the guess 0.1, every iterate kept: Newton's method and the secant method (second point
 * 0.001 or 1E-5 beside the guess, either side) on the rate r, on 1+r and on d = 1/(1+r), XNPV's powers as Math.pow,
 * exp(log1p(r)*t) or d^t. Stop rules on d or on the rate at 1E-6 to 1E-10 each return one of these iterates.
 */
function xirrPaths(flows: readonly number[], years: readonly number[]): Map<string, number[]> {
  const powers = new Map<string, (rate: number, t: number) => number>([["Math.pow", (rate, t) => (1 + rate) ** -t], ["exp(log1p(r)*t)", (rate, t) => Math.exp(-Math.log1p(rate) * t)], ["d^t", (rate, t) => (1 / (1 + rate)) ** t]]);
  const variables = new Map<string, [(rate: number) => number, (x: number) => number]>([["r", [(rate) => rate, (x) => x]], ["1+r", [(rate) => 1 + rate, (x) => x - 1]], ["d", [(rate) => 1 / (1 + rate), (x) => 1 / x - 1]]]);
  const paths = new Map<string, number[]>();
  for (const [powerName, power] of powers) {
    const xnpv = (rate: number): number => flows.reduce((total, flow, index) => total + flow * power(rate, years[index] ?? 0), 0);
    const slope = (rate: number): number => flows.reduce((total, flow, index) => total - ((years[index] ?? 0) * flow * power(rate, years[index] ?? 0)) / (1 + rate), 0);
    for (const [variable, [to, from]] of variables) {
      // d(XNPV)/dx by the chain rule: dr/dx is 1 for r and 1+r, -1/d^2 for d
      const chain = (x: number): number => (variable === "d" ? -1 / (x * x) : 1);
      // a step to -100% or below goes halfway there instead, as the engine's Newton does
      const clamp = (x: number, next: number): number => (from(next) <= -1 || !(next > 0 || variable === "r") ? to((from(x) - 1) / 2) : next);
      const iterates: number[] = [];
      let x = to(0.1);
      for (let step = 0; step < 100 && Number.isFinite(x); step += 1) {
        const next = clamp(x, x - xnpv(from(x)) / (slope(from(x)) * chain(x)));
        iterates.push(from(next));
        if (Math.abs(next - x) < 1e-15 * Math.abs(x)) break;
        x = next;
      }
      paths.set(`Newton on ${variable}, ${powerName}`, iterates);
      for (const offset of [1e-3, -1e-3, 1e-5, -1e-5]) {
        const value = (at: number): number => xnpv(from(at));
        const secantIterates: number[] = [];
        let [a, fa, b] = [to(0.1), value(to(0.1)), to(0.1) + offset];
        let fb = value(b);
        for (let step = 0; step < 100 && fb !== fa && Number.isFinite(fb); step += 1) {
          const c = clamp(b, corrected(a, fa, b, fb));
          secantIterates.push(from(c), from(weighted(a, fa, b, fb)));
          [a, fa, b, fb] = [b, fb, c, value(c)];
        }
        paths.set(`secant on ${variable}, ${powerName}, second point ${String(offset)} beside`, secantIterates);
      }
    }
  }
  return paths;
}

function reportXirr(): void {
  const cells = xirrCells();
  const tally = new Map<string, { agree: number; digits: number[] }>();
  for (const cell of cells) {
    for (const [name, iterates] of xirrPaths(cell.flows, cell.years)) {
      const entry = tally.get(name) ?? { agree: 0, digits: [] };
      const best = Math.max(0, ...iterates.filter(Number.isFinite).map((iterate) => (sameValue(iterate, cell.excel) ? 15 : sharedDigits(iterate, cell.excel))));
      tally.set(name, { agree: entry.agree + (best === 15 ? 1 : 0), digits: [...entry.digits, best] });
    }
  }
  process.stdout.write(`XIRR: ${cells.length} cells (any iterate counted; the most digits any iterate shares with Excel's value, by cell)\n`);
  for (const [name, { agree, digits }] of tally) process.stdout.write(`  ${String(agree).padStart(3)}  ${name} (${digits.join(" ")})\n`);
}

/** The public samples as cells to score (their saved bits as the double). */
const samplesOf = (samples: readonly PublicSample[]): SolverCell[] => samples.map(({ at, inputs, guess, bits }) => ({ at, inputs, guess, excel: doubleOf(bits) }));

// imported by scripts/excel-probe.ts for its candidates: the report only when run itself
if (require.main === module) {
  if (process.argv[2] === "IRR-STORES") {
    const [today] = irrRoundingCandidates().values();
    report("IRR in x87's 64 bits, each choice of stores (today's path first)", solverCells("FINANCIAL__IRR.xlsx", "IRR"), new Map([["today's path", today ?? (() => NaN)], ...irrStoreCandidates()]), "today's path", samplesOf(PUBLIC_IRR));
  } else {
    report("IRR", solverCells("FINANCIAL__IRR.xlsx", "IRR"), irrCandidates(), "Newton's", samplesOf(PUBLIC_IRR));
    report("IRR, Excel's path rounded otherwise", solverCells("FINANCIAL__IRR.xlsx", "IRR"), irrRoundingCandidates(), "today's path", samplesOf(PUBLIC_IRR));
    report("RATE", solverCells("FINANCIAL__RATE.xlsx", "RATE"), rateCandidates(), "Newton's", samplesOf(PUBLIC_RATE));
    reportXirr();
  }
}
