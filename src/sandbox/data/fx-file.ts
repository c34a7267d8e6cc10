/**
 * `fx-rates.json` of an exported data set (docs/sandbox-data.md): one row a day, `[date, rate, rate, ...]` in the
 * order of `currencies`, each rate in units of that currency per unit of `base`.
 */
import { fromEpochDay, parseIsoDate, toEpochDay } from "../../api";
import type { FxRates } from "./fx-rates";
import { jsonOrUndefined } from "./json";
import { DataError } from "./data-error";

export const FX_FILE = "fx-rates.json";

export function fxRatesText(rates: FxRates, base: string): string {
  const currencies = [...rates.perUsd.keys()];
  const columns = currencies.map((id) => rates.perUsd.get(id) as Float64Array);
  const rows: string[] = [];
  for (let i = 0; i < rates.length; i++) {
    rows.push(`    ${JSON.stringify([fromEpochDay(rates.firstDay + i), ...columns.map((column) => column[i] as number)])}`);
  }
  return `{\n  "base": ${JSON.stringify(base)},\n  "currencies": ${JSON.stringify(currencies)},\n  "rates": [\n${rows.join(",\n")}\n  ]\n}\n`;
}

function fail(where: string, problem: string): never {
  throw new DataError(where, problem);
}

function show(value: unknown): string {
  const text = jsonOrUndefined(value);
  if (text === undefined) return typeof value;
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Reads the parsed file: every day from the first row on, consecutive, a positive rate for every currency. */
export function loadFxRates(value: unknown): FxRates {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(FX_FILE, `expected an object {"base", "currencies", "rates"}, got ${show(value)}`);
  const file = value as Record<string, unknown>;
  const currencies = file["currencies"];
  if (!Array.isArray(currencies) || currencies.length === 0 || !currencies.every((id) => typeof id === "string" && id !== "")) {
    fail(`${FX_FILE}.currencies`, `expected a non-empty array of currency ids, got ${show(currencies)}`);
  }
  const ids = currencies as string[];
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) fail(`${FX_FILE}.currencies`, `${twice} appears twice`);
  const rows = file["rates"];
  if (!Array.isArray(rows) || rows.length === 0) fail(`${FX_FILE}.rates`, `expected a non-empty array of [date, rate, ...] rows, got ${show(rows)}`);
  const columns = ids.map(() => new Float64Array(rows.length));
  let firstDay = 0;
  rows.forEach((row: unknown, i) => {
    const where = `${FX_FILE}.rates[${i}]`;
    if (!Array.isArray(row) || row.length !== ids.length + 1) fail(where, `expected [date, ${ids.join(", ")}], got ${show(row)}`);
    const date = typeof row[0] === "string" ? parseIsoDate(row[0]) : undefined;
    if (date === undefined) fail(`${where}[0]`, `expected a date YYYY-MM-DD, got ${show(row[0])}`);
    if (i === 0) firstDay = toEpochDay(date);
    else if (toEpochDay(date) !== firstDay + i) fail(`${where}[0]`, `expected ${fromEpochDay(firstDay + i)} (one row a day, no gaps), got ${date}`);
    ids.forEach((id, c) => {
      const rate: unknown = row[c + 1];
      if (typeof rate !== "number" || !Number.isFinite(rate) || rate <= 0) fail(`${where}[${c + 1}]`, `expected a positive rate for ${id}, got ${show(rate)}`);
      (columns[c] as Float64Array)[i] = rate;
    });
  });
  return { firstDay, length: rows.length, perUsd: new Map(ids.map((id, c) => [id, columns[c] as Float64Array])) };
}
