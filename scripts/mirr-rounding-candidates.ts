/**
 * MIRR's steps rounded as a C compiler may leave them, for scripts/closed-form-candidates.ts: in doubles, with a fused
 * multiply-add where a product feeds a sum (MSVC under /arch:AVX2), or in x87's 64 bits kept through the sums and the
 * ratio and rounded to a double where the ratio is passed to the root; the root as today's exp(log(x)*(1/k)), as `**`
 * or correctly rounded (scripts/exact-rounding.ts). docs/formula-engine.md ("Closed forms") reports the scores.
 */
import { excelPower } from "../src/host/worksheet-finance";
import { type Binary, EXTENDED_BITS, arithmetic, correctRoot, fma } from "./exact-rounding";

type Result = number | "error";
type Mirr = (flows: readonly number[], finance: number, reinvest: number) => Result;
type Power = (rate: number, exponent: number) => number;

/** One way of rounding: numbers as the mode holds them, and `a*b+c` as it contracts it. */
interface Mode<V> {
  readonly of: (value: number) => V;
  readonly plus: (a: V, b: V) => V;
  readonly times: (a: V, b: V) => V;
  readonly over: (a: V, b: V) => V;
  readonly timesPlus: (a: V, b: V, c: V) => V;
  readonly value: (a: V) => number;
}

const doubles: Mode<number> = { of: (a) => a, plus: (a, b) => a + b, times: (a, b) => a * b, over: (a, b) => a / b, timesPlus: (a, b, c) => a * b + c, value: (a) => a };
const fused: Mode<number> = { ...doubles, timesPlus: fma };
const x87 = arithmetic(EXTENDED_BITS);
const extended: Mode<Binary> = { of: x87.of, plus: x87.plus, times: x87.times, over: x87.over, timesPlus: (a, b, c) => x87.plus(x87.times(a, b), c), value: x87.value };

const POWERS: Record<string, Power> = {
  "**": (r, n) => (1 + r) ** n,
  squaring: (r, n) => excelPower(1 + r, n),
  "exp(n*log(1+r))": (r, n) => Math.exp(n * Math.log(1 + r)),
};

const ROOTS: Record<string, (ratio: number, k: number) => number> = {
  "exp(log(x)*(1/k)) (today)": (x, k) => Math.exp(Math.log(x) * (1 / k)),
  "correctly rounded": correctRoot,
  "**(1/k)": (x, k) => x ** (1 / k),
};

/** The gains at the first period (to be compounded) or at the last, and the costs at the first, in a mode. */
function forms<V>(mode: Mode<V>, power: Power) {
  const sumOf = (flows: readonly number[], keep: (flow: number) => boolean, term: (total: V, flow: number, index: number) => V): V =>
    flows.reduce((total, flow, index) => (keep(flow) ? term(total, flow, index) : total), mode.of(0));
  const gains = (flow: number) => flow > 0;
  return {
    present: {
      "x/(1+r)^i (today)": (flows: readonly number[], r: number) => sumOf(flows, gains, (t, x, i) => mode.plus(t, mode.over(mode.of(x), mode.of(power(r, i))))),
      "x*(1+r)^-i": (flows: readonly number[], r: number) => sumOf(flows, gains, (t, x, i) => mode.timesPlus(mode.of(x), mode.of(power(r, -i)), t)),
    },
    future: {
      "x*(1+r)^(n-1-i)": (flows: readonly number[], r: number) => sumOf(flows, gains, (t, x, i) => mode.timesPlus(mode.of(x), mode.of(power(r, flows.length - 1 - i)), t)),
      "Horner, t*(1+r)+x": (flows: readonly number[], r: number) => flows.reduce((t, x) => mode.timesPlus(t, mode.plus(mode.of(1), mode.of(r)), mode.of(x > 0 ? x : 0)), mode.of(0)),
    },
    costs: (flows: readonly number[], f: number) => sumOf(flows, (flow) => flow < 0, (t, x, i) => mode.plus(t, mode.over(mode.of(x), mode.of(power(f, i))))),
  };
}

function candidatesIn<V>(modeName: string, mode: Mode<V>): Record<string, Mirr> {
  const candidates: Record<string, Mirr> = {};
  const finish = (ratio: number, k: number, root: (x: number, k: number) => number): Result => {
    const value = (ratio > 0 ? root(ratio, k) : ratio ** (1 / k)) - 1;
    return Number.isFinite(value) ? value : "error";
  };
  for (const [powerName, power] of Object.entries(POWERS)) {
    const { present, future, costs } = forms(mode, power);
    for (const [rootName, root] of Object.entries(ROOTS)) {
      const name = (form: string) => `${modeName}: ${powerName} powers, gains ${form}, root ${rootName}`;
      for (const [formName, form] of Object.entries(future)) {
        candidates[name(`${formName} over costs`)] = (flows, f, r) => {
          const cost = costs(flows, f);
          if (mode.value(cost) === 0 || flows.length < 2 || !Number.isFinite(mode.value(cost))) return "error";
          return finish(mode.value(mode.over(form(flows, r), mode.times(mode.of(-1), cost))), flows.length - 1, root);
        };
      }
      for (const [formName, form] of Object.entries(present)) {
        for (const order of ["(g*c)/-k", "(g/-k)*c", "g*(c/-k)"] as const) {
          candidates[name(`${formName} compounded, ${order}`)] = (flows, f, r) => {
            const n = flows.length;
            const cost = costs(flows, f);
            if (mode.value(cost) === 0 || n < 2 || !Number.isFinite(mode.value(cost))) return "error";
            const k = mode.times(mode.of(-1), cost);
            // at -100 % or below nothing discounts: the gains compounded, as the engine does
            if (r <= -1) return finish(mode.value(mode.over(future["x*(1+r)^(n-1-i)"](flows, r), k)), n - 1, root);
            const [g, c] = [form(flows, r), mode.of(power(r, n - 1))];
            const ratio = order === "(g*c)/-k" ? mode.over(mode.times(g, c), k) : order === "(g/-k)*c" ? mode.times(mode.over(g, k), c) : mode.times(g, mode.over(c, k));
            return finish(mode.value(ratio), n - 1, root);
          };
        }
      }
    }
  }
  return candidates;
}

/** Every candidate, each guarded: a step that overflows is an error, as in the engine. */
export function mirrRoundingCandidates(): Record<string, { MIRR: Mirr }> {
  const all = { ...candidatesIn("doubles", doubles), ...candidatesIn("fused multiply-add", fused), ...candidatesIn("x87 64 bits", extended) };
  return Object.fromEntries(
    Object.entries(all).map(([name, mirr]) => [
      name,
      {
        MIRR: (flows: readonly number[], f: number, r: number): Result => {
          try {
            return mirr(flows, f, r);
          } catch (error) {
            if (error instanceof RangeError) return "error";
            throw error;
          }
        },
      },
    ]),
  );
}

/**
 * Where Excel's MIRR lies from the correctly rounded root of today's ratio, in units in the last place of the root:
 * a tally of the offsets (0: Excel's value is the correctly rounded root less 1; "other": none within 3 units).
 */
export function rootOffsets(cells: readonly { flows: readonly number[]; finance: number; reinvest: number; excel: number }[]): Map<string, number> {
  const tally = new Map<string, number>();
  const { present, costs } = forms(doubles, POWERS["**"] ?? ((r, n) => (1 + r) ** n));
  for (const { flows, finance, reinvest, excel } of cells) {
    const [n, cost] = [flows.length, costs(flows, finance)];
    if (cost === 0 || n < 2 || reinvest <= -1) continue;
    const ratio = (present["x/(1+r)^i (today)"](flows, reinvest) * (1 + reinvest) ** (n - 1)) / -cost;
    if (!(ratio > 0)) continue;
    const root = correctRoot(ratio, n - 1);
    const ulp = 2 ** (Math.floor(Math.log2(root)) - 52);
    const offset = [0, 1, -1, 2, -2, 3, -3].find((units) => root + units * ulp - 1 === excel);
    const key = offset === undefined ? "other" : String(offset);
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  return tally;
}
