/**
 * The pane's client as handed to the functions, with every failed answer also written to the pane's error log,
 * so "Last errors" lists in plain words what the "Errors" counter counts (a cell's #N/A included).
 */
import type { HistoryKey, PriceKey, PricesClient } from "../prices/types";
import { describeKey } from "./diagnostics";

export type ErrorRecorder = (where: string, error: unknown) => void;

export function recordingClient(client: PricesClient, record: ErrorRecorder): PricesClient {
  const watch = <T>(where: string, answer: Promise<T>): Promise<T> =>
    answer.catch((error: unknown) => {
      record(where, error);
      throw error;
    });
  return {
    price: (key: PriceKey) => watch(describeKey(key), client.price(key)),
    history: (key: HistoryKey) => watch(describeKey(key), client.history(key)),
    instrument: (symbol, fields) => watch(`instrument ${symbol}`, client.instrument(symbol, fields)),
    instruments: (fields) => watch("instrument list", client.instruments(fields)),
    references: (type) => watch(`reference list ${type}`, client.references(type)),
    invalidate: (filter) => client.invalidate(filter),
    stats: () => client.stats(),
    lineage: (key) => client.lineage(key),
  };
}
