/** The metadata family: /Instruments by symbol or as the whole list, and /References by type. */
import { PATHS, type InstrumentFieldName, type Limits } from "../api/vocabulary";
import { encodeParams } from "../api/requests";
import type { InstrumentRecord } from "../api/schemas";
import { InvalidInstrumentError, ResponseFormatError } from "./errors";
import type { NormInstrumentKey, NormInstrumentsKey, NormReferenceKey } from "./keys";
import { projectInstrument, readEnvelope, readInstrument, readReferences } from "./parse";
import { chunk } from "./plan";
import { type Keyed, type PlannedRequest, push, unionFields } from "./planned-request";

export function planInstruments<T extends Keyed<NormInstrumentKey>>(items: readonly T[], limits: Limits): PlannedRequest<T>[] {
  const fields = unionFields<InstrumentFieldName>(items);
  const bySymbol = new Map<string, T[]>();
  for (const item of items) push(bySymbol, item.key.symbol, item);
  return chunk([...bySymbol.keys()], limits.maxSymbols).map((symbols): PlannedRequest<T> => {
    const served = symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    return {
      endpoint: PATHS.instruments,
      params: encodeParams({ symbols, fields }),
      items: served,
      recordsRequested: 0,
      size: { symbols: symbols.length, dates: 0, records: 0 },
      answer: (body, request) => {
        const envelope = readEnvelope(body, request);
        const parsed = new Map<string, InstrumentRecord | Error>();
        const results = served.map(({ key }): InstrumentRecord | Error => {
          const invalid = envelope.invalid.get(key.symbol);
          if (invalid !== undefined) return new InvalidInstrumentError(key.symbol, invalid || undefined);
          const found = envelope.blocks.get(key.symbol);
          if (!found) return new InvalidInstrumentError(key.symbol);
          let record = parsed.get(key.symbol);
          if (!record) {
            try {
              record = readInstrument(envelope, found.raw, found.index);
            } catch (error) {
              record = error instanceof Error ? error : new Error(String(error));
            }
            parsed.set(key.symbol, record);
          }
          return record instanceof Error ? record : projectInstrument(record, key.fields);
        });
        return { results, records: envelope.blocks.size };
      },
    };
  });
}

export function planInstrumentList<T extends Keyed<NormInstrumentsKey>>(items: readonly T[]): PlannedRequest<T> {
  const fields = unionFields<InstrumentFieldName>(items);
  return {
    endpoint: PATHS.instruments,
    params: encodeParams({ fields }),
    items: [...items],
    recordsRequested: 0,
    size: { symbols: 0, dates: 0, records: 0 },
    answer: (body, request) => {
      const envelope = readEnvelope(body, request);
      const all = [...envelope.blocks.values()].sort((a, b) => a.index - b.index).map(({ raw, index }) => readInstrument(envelope, raw, index));
      const results = items.map(({ key }) => all.map((record) => projectInstrument(record, key.fields)));
      return { results, records: all.length };
    },
  };
}

export function planReferences<T extends Keyed<NormReferenceKey>>(items: readonly T[]): PlannedRequest<T> {
  const types = [...new Set(items.map((item) => item.key.type))].sort();
  return {
    endpoint: PATHS.references,
    params: encodeParams({ types }),
    items: [...items],
    recordsRequested: 0,
    size: { symbols: 0, dates: 0, records: 0 },
    answer: (body, request) => {
      const groups = readReferences(body, request);
      const results = items.map(({ key }) => groups.get(key.type.toLowerCase()) ?? new ResponseFormatError(`references[type=${key.type}]`, "is missing", request));
      return { results, records: groups.size };
    },
  };
}
