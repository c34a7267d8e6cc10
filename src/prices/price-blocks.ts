/** An answer's price blocks, each parsed once on first use, and the records they hold. */
import { type Envelope, type PriceBlock, readPriceBlock } from "./parse";

/** Parses blocks on first use, once, remembering failures so that only that symbol's keys fail. */
export function blockReader(envelope: Envelope): (symbol: string) => PriceBlock | Error | undefined {
  const parsed = new Map<string, PriceBlock | Error>();
  return (symbol) => {
    const known = parsed.get(symbol);
    if (known) return known;
    const found = envelope.blocks.get(symbol);
    if (!found) return undefined;
    let result: PriceBlock | Error;
    try {
      result = readPriceBlock(envelope, found.raw, found.index);
    } catch (error) {
      result = error instanceof Error ? error : new Error(String(error));
    }
    parsed.set(symbol, result);
    return result;
  };
}

export function countPriceRecords(envelope: Envelope): number {
  let total = 0;
  for (const { raw } of envelope.blocks.values()) {
    const prices = (raw as { prices?: unknown }).prices;
    if (Array.isArray(prices)) total += prices.length;
  }
  return total;
}
