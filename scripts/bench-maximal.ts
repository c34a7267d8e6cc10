/** The symbols of a maximal answer (as many records as the limit allows), shared by the benchmarks that ask for one. */
import { toEpochDay } from "../src/api";
import { generateDataSet } from "../src/sandbox/data/generator";

/** Symbols whose history from `from` to `today` holds as many records as `maxRecords` allows, curves first (the largest records). */
export function maximalSymbols(today: string, from: string, maxRecords: number): { symbols: string[]; records: number } {
  const data = generateDataSet({ today });
  const first = toEpochDay(from);
  const counted = data.instruments.map((instrument) => ({
    symbol: instrument.record.symbol,
    curves: instrument.record.hasForwardCurves,
    records: Array.from(instrument.series.days).filter((day) => day >= first).length,
  }));
  counted.sort((a, b) => Number(b.curves) - Number(a.curves) || b.records - a.records);
  const symbols: string[] = [];
  let records = 0;
  for (const item of counted) {
    if (records + item.records > maxRecords) continue;
    symbols.push(item.symbol);
    records += item.records;
  }
  return { symbols, records };
}
