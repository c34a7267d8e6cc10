/** Price cells that carry their record (rich mode): which cells become Excel.DoubleCellValue, and with what. */
import type { ConversionTarget } from "../api/conversion";
import type { PriceRecord, PriceKey } from "../prices/types";
import type { FunctionsClient, FunctionsContext } from "./context";
import { NO_DATA_TYPES, PRICE_AMOUNT_FIELDS, richPrice, valueModeOf, type RichDouble } from "./data-types";

/** Whether this call's `field` values become rich: the mode (argument, else setting) says rich, the host shows formatted numbers, the field is an amount. */
export function wantsRichPrices(context: FunctionsContext, field: string, valuesArg?: unknown): boolean {
  const mode = valueModeOf(valuesArg, context.valueMode ?? "plain");
  return mode === "rich" && (context.dataTypes ?? NO_DATA_TYPES).numbers && PRICE_AMOUNT_FIELDS.has(field);
}

/** The request in words, as the cell's `Request` property shows it. */
export function requestText(key: PriceKey): string {
  const parts = [`symbol=${key.symbol}`, `date=${key.date ?? "latest"}`];
  if (key.calculationType !== undefined) parts.push(`calculation=${key.calculationType}`);
  if (key.currency !== undefined) parts.push(`currency=${key.currency}`);
  if (key.unit !== undefined) parts.push(`unit=${key.unit}`);
  return parts.join("; ");
}

/** A price value with its record; the instrument (cached by the client) gives its own currency and unit. */
export async function richPriceCell(
  client: FunctionsClient,
  key: PriceKey,
  record: PriceRecord,
  value: number,
  field: string,
  target: ConversionTarget | undefined,
  context: Pick<FunctionsContext, "dateSystem">,
): Promise<RichDouble> {
  const instrument = await client.instrument(key.symbol);
  return richPrice(value, {
    symbol: instrument.symbol,
    field,
    record,
    own: { currency: instrument.currencyId, unit: instrument.unitOfMeasureId },
    target: target ?? {},
    request: requestText(key),
    system: context.dateSystem,
  });
}
