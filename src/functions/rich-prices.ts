/** Price cells that carry their record (rich mode): which cells become Excel.DoubleCellValue, and with what. */
import type { ConversionTarget } from "../api/conversion";
import type { PriceRecord, PriceKey } from "../prices/types";
import type { FunctionsClient, FunctionsContext } from "./context";
import { NO_DATA_TYPES, PRICE_AMOUNT_FIELDS, richPriceFrom, recordProperties, sharedPriceParts, valueModeOf, type PriceShared } from "./data-types";
import { describeFailure } from "./errors";
import { CellFailure, type Grid } from "./shape";

/** Whether this call's `field` values become rich: the mode (argument, else setting) says rich, the host shows formatted numbers, the field is an amount. */
export function wantsRichPrices(context: FunctionsContext, field: string, valuesArg?: unknown): boolean {
  const mode = valueModeOf(valuesArg, context.valueMode ?? "plain");
  return mode === "rich" && (context.dataTypes ?? NO_DATA_TYPES).numbers && PRICE_AMOUNT_FIELDS.has(field);
}

/** The request in words, as the cell's `Request` property shows it. */
export function requestText(key: PriceKey): string {
  let text = `symbol=${key.symbol}; date=${key.date ?? "latest"}`;
  if (key.calculationType !== undefined) text += `; calculation=${key.calculationType}`;
  if (key.currency !== undefined) text += `; currency=${key.currency}`;
  if (key.unit !== undefined) text += `; unit=${key.unit}`;
  return text;
}

export interface RichPriceMaker {
  /** Asks for the symbol's instrument (once per call) while its price is asked. */
  prepare(symbol: string): void;
  /** Notes the price of the grid's cell at (row, col) as it comes in; the cell itself stays the plain number until `apply`. */
  note(row: number, col: number, key: PriceKey, record: PriceRecord): void;
  /** The grid (changed in place) with each noted number as a rich price, once the instruments are in; a cell whose instrument failed gets that failure. */
  apply(grid: Grid): Promise<Grid>;
}

/**
 * Makes one call's rich price cells. The instrument (its own currency and unit) is asked once per symbol, and
 * what a symbol's cells share is built once. The cells are made in one pass after the grid is filled, so each
 * cell's promise settles with a number as in plain mode and no cell waits on its instrument: a 200 x 50 grid went
 * from 1.45x the CPU of plain values to about 1.4x on the shared machine (npm run bench:data-types).
 */
export function richPriceMaker(client: FunctionsClient, field: string, target: ConversionTarget | undefined, context: Pick<FunctionsContext, "dateSystem">, cols: number, rows = 0): RichPriceMaker {
  const pending = new Map<string, Promise<PriceShared>>();
  // filled to size up front: cells settle out of order, and a first write far past the end makes a slow sparse array
  const keys = new Array<PriceKey | undefined>(rows * cols).fill(undefined);
  const records = new Array<PriceRecord | undefined>(rows * cols).fill(undefined);
  return {
    prepare(symbol) {
      if (pending.has(symbol)) return;
      const parts = client.instrument(symbol).then((instrument) => sharedPriceParts({ symbol: instrument.symbol, field, own: { currency: instrument.currencyId, unit: instrument.unitOfMeasureId }, target: target ?? {} }));
      // a failed instrument fails the cells of its symbol in `apply`; no unhandled rejection meanwhile
      parts.catch(() => undefined);
      pending.set(symbol, parts);
    },
    note(row, col, key, record) {
      keys[row * cols + col] = key;
      records[row * cols + col] = record;
    },
    async apply(grid) {
      const shared = new Map<string, PriceShared | CellFailure>();
      await Promise.all(
        [...pending].map(([symbol, parts]) =>
          parts.then(
            (made) => void shared.set(symbol, made),
            (error: unknown) => void shared.set(symbol, new CellFailure(describeFailure(error))),
          ),
        ),
      );
      const parts = recordProperties(context.dateSystem);
      // plain loops, the symbol's parts looked up once per run of cells of one symbol (a row, symbols down)
      let symbol: string | undefined;
      let made: PriceShared | CellFailure | undefined;
      for (let r = 0; r < grid.length; r += 1) {
        const row = grid[r] as Grid[number];
        for (let c = 0; c < row.length; c += 1) {
          const cell = row[c];
          const key = keys[r * cols + c];
          const record = records[r * cols + c];
          if (key === undefined || record === undefined || typeof cell !== "number") continue;
          if (key.symbol !== symbol) {
            symbol = key.symbol;
            made = shared.get(symbol);
          }
          if (made !== undefined) row[c] = made instanceof CellFailure ? made : richPriceFrom(cell, made, record, requestText(key), parts);
        }
      }
      return grid;
    },
  };
}
