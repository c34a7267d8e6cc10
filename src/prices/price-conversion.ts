/**
 * A conversion asked of the service (convention 21): the parameters that ask it, how a refusal of it reads,
 * and whether an answer's block is in the target asked (a service that ignores the parameters must not pass
 * unconverted values off as converted).
 */
import { conversionLabel, type ConversionTarget } from "../api/conversion";
import { ConversionError, HTTPError, InvalidInstrumentError } from "./errors";
import type { NormHistoryKey, NormPriceKey } from "./keys";

/** The conversion a group of keys asks (all keys of a request ask the same), or undefined. */
export function targetOf(key: NormPriceKey | NormHistoryKey | undefined): ConversionTarget | undefined {
  if (key === undefined || (key.currency === undefined && key.unit === undefined)) return undefined;
  const target: ConversionTarget = {};
  if (key.currency !== undefined) target.currency = key.currency;
  if (key.unit !== undefined) target.unit = key.unit;
  return target;
}

export function targetParams(target: ConversionTarget | undefined): { targetCurrency?: string; targetUnitOfMeasure?: string } {
  return { targetCurrency: target?.currency, targetUnitOfMeasure: target?.unit };
}

const TARGET_PARAMETERS = ["targetcurrency", "targetunitofmeasure"];

/** A 400 that names the conversion parameters: the service does not offer the conversion at all. */
export function refineRefusal(target: ConversionTarget | undefined): ((error: unknown) => unknown) | undefined {
  if (target === undefined) return undefined;
  return (error) => {
    if (!(error instanceof HTTPError) || error.status !== 400) return error;
    const named = (error.problem?.errors ?? []).some((item) => TARGET_PARAMETERS.includes(item.parameter.toLowerCase()));
    const inDetail = /targetCurrency|targetUnitOfMeasure/i.test(error.problem?.detail ?? "");
    return named || inDetail ? new ConversionError(conversionLabel(target)) : error;
  };
}

/** Whether a block is in the target asked: a service that ignores the parameters must not pass unconverted values off as converted. */
export function inTarget(block: { currencyId?: string; unitOfMeasureId?: string }, target: ConversionTarget): boolean {
  const same = (given: string | undefined, asked: string | undefined) => asked === undefined || given?.toUpperCase() === asked;
  return same(block.currencyId, target.currency) && same(block.unitOfMeasureId, target.unit) && (block.currencyId !== undefined || block.unitOfMeasureId !== undefined);
}

/** The error of a symbol listed in `invalidInstruments`: a conversion it lacks reads as such. */
export function invalidError(symbol: string, message: string, target: ConversionTarget | undefined): Error {
  if (target !== undefined && /conversion/i.test(message)) return new ConversionError(conversionLabel(target), symbol, message);
  return new InvalidInstrumentError(symbol, message || undefined);
}
