/** The price reporter's text for a generated assessment, written on demand from the series itself. */
import type { AssessmentSeries } from "./model";
import { hashInts } from "./random";

const SALT_RATIONALE = 5;

const REASONS_UP = [
  "on firmer spot demand",
  "as prompt availability tightened",
  "on higher freight costs",
  "with consumers restocking",
  "after producers reported supply disruptions",
  "following stronger futures",
] as const;
const REASONS_DOWN = [
  "on weak buying interest",
  "amid ample stocks",
  "following softer futures",
  "on slower downstream demand",
  "as new supply arrived",
  "with sellers keen to clear inventory",
] as const;
const REASONS_FLAT = [
  "in a quiet market with few trades",
  "with supply and demand broadly balanced",
  "as buyers and sellers held their positions",
  "in holiday-thinned trading",
] as const;
const EVIDENCE = [
  (a: number, b: number) => `${a} trades and ${b} bids and offers were reported.`,
  (a: number) => `The assessment reflects ${a} confirmed ${a === 1 ? "deal" : "deals"}.`,
  (_a: number, b: number) => `Market participants provided ${b} indications.`,
  () => "Deals were heard across the range.",
] as const;

export interface RationaleContext {
  key: number;
  /** What is assessed, e.g. `Aluminium P1020A premium, in-whs Rotterdam`. */
  subject: string;
  /** e.g. `$/tonne`. */
  units: string;
  decimals: number;
}

function choose<T>(items: readonly T[], hash: number): T {
  return items[hash % items.length] as T;
}

export function rationaleWriter(context: RationaleContext): (series: AssessmentSeries, index: number) => string {
  const format = (value: number): string => value.toFixed(context.decimals);
  return (series, index) => {
    const h = hashInts(context.key, SALT_RATIONALE, index);
    const low = series.low[index] ?? 0;
    const mid = series.mid[index] ?? 0;
    const high = series.high[index] ?? 0;
    const range = low === high ? `${format(mid)} ${context.units}` : `${format(low)}-${format(high)} ${context.units}`;
    const parts: string[] = [];
    if (series.appraisalPrice(index)) {
      parts.push(`${context.subject} assessed by appraisal at ${range}: no trades, bids or offers were reported, so the price was set from related markets and market surveys.`);
    } else if (index === 0) {
      parts.push(`${context.subject} first assessed at ${range}.`);
    } else {
      const change = mid - (series.mid[index - 1] ?? mid);
      const magnitude = Math.abs(change);
      if (magnitude < 0.5 * 10 ** -context.decimals) {
        parts.push(`${context.subject} was unchanged at ${range} ${choose(REASONS_FLAT, h)}.`);
      } else {
        const reason = change > 0 ? choose(REASONS_UP, h) : choose(REASONS_DOWN, h);
        parts.push(`${context.subject} ${change > 0 ? "rose" : "fell"} by ${format(magnitude)} to ${range} ${reason}.`);
      }
      parts.push(choose(EVIDENCE, h >>> 8)(1 + ((h >>> 12) % 6), 2 + ((h >>> 16) % 9)));
    }
    const revision = series.revision[index] ?? 0;
    if (revision > 0) parts.push(`Corrected after publication (revision ${revision}).`);
    return parts.join(" ");
  };
}
