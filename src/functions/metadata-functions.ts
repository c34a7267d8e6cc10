/** INSTRUMENT, INSTRUMENTS and REFERENCE: instrument metadata and reference lists. */
import type { InstrumentRecord } from "../api/schemas";
import { REFERENCE_TYPES, type ReferenceType } from "../api/vocabulary";
import type { DataTypeSupport } from "./data-types";
import { fieldValue } from "./date-values";
import {
  choiceOf,
  dateFormatOf,
  flatten,
  headersOf,
  isBlank,
  isSingleCell,
  nameList,
  optionalText,
  requiredSymbol,
  scalar,
  show,
  symbolOf,
  toMatrix,
  type DateFormat,
} from "./coerce";
import type { ConversionTarget } from "../api/conversion";
import { run, type FunctionsContext } from "./context";
import { conversionsOf, conversionTarget, recordInTarget } from "./conversion-args";
import type { DateSystem } from "../formula/excel-dates";
import { ArgumentError, NotAvailableError } from "./errors";
import { matchesWords, noMatchReason, searchWords } from "./instrument-search";
import {
  DEFAULT_INSTRUMENTS_FIELDS,
  INSTRUMENT_FIELDS,
  instrumentFieldOf,
  instrumentFieldValue,
  requestedInstrumentFields,
  type InstrumentField,
} from "./fields";
import { checkResultSize, crossLayout, fillGrid, finish, readItems, settle, withHeaders, type Grid } from "./shape";

function instrumentCell(record: InstrumentRecord, field: InstrumentField, format: DateFormat, system: DateSystem, support: DataTypeSupport | undefined): unknown {
  try {
    return fieldValue(field, instrumentFieldValue(record, field, format, system), support);
  } catch {
    return "";
  }
}

/**
 * With a field (or a range of fields): symbols down, fields across. Without: one symbol's whole record
 * as name/value rows, or for a range of symbols one row per symbol under a row of field names.
 */
export function instrument(
  context: FunctionsContext,
  symbolsArg: unknown,
  fieldArg: unknown,
  dateFormatArg: unknown,
  currencyArg?: unknown,
  unitArg?: unknown,
): Promise<Grid> {
  return run(context, async () => {
    const format = dateFormatOf(dateFormatArg);
    const symbolMatrix = toMatrix(symbolsArg, "symbols");
    const fieldNames = nameList(fieldArg, "field");
    const target = await conversionTarget(context.client(), currencyArg, unitArg);
    if (fieldNames === undefined) return wholeRecords(context, symbolMatrix, format, target);
    const fieldMatrix = Array.isArray(fieldArg) ? toMatrix(fieldArg, "field") : [fieldNames];
    const symbolItems = readItems(symbolMatrix, (cell) => symbolOf(cell));
    const fieldItems = readItems(fieldMatrix, (cell) => {
      const name = optionalText(cell, "field");
      return name === undefined ? undefined : instrumentFieldOf(name);
    });
    const layout = crossLayout(symbolItems, fieldItems);
    const single = layout.rows === 1 && layout.cols === 1;
    const requested = requestedInstrumentFields(
      fieldItems.flat().flatMap((item) => (item.ok && item.value !== undefined ? [item.value] : [])),
    );
    const client = context.client();
    const grid = await fillGrid(
      layout,
      async (symbol, field) => {
        if (symbol === undefined) throw new ArgumentError("symbol is required: give an instrument symbol such as 'MB-AL-0004'");
        if (field === undefined) throw new ArgumentError("field is required");
        const record = await client.instrument(symbol, requested.length > 0 ? requested : undefined);
        return fieldValue(field, instrumentFieldValue(await recordInTarget(client, record, target), field, format, context.dateSystem), context.dataTypes);
      },
      (symbol, field) => !single && ((symbol.ok && symbol.value === undefined) || (field.ok && field.value === undefined)),
    );
    return finish(grid, context.makeError);
  });
}

async function wholeRecords(context: FunctionsContext, symbolMatrix: ReturnType<typeof toMatrix>, format: DateFormat, target: ConversionTarget): Promise<Grid> {
  const all = requestedInstrumentFields(INSTRUMENT_FIELDS);
  if (isSingleCell(symbolMatrix)) {
    const symbol = symbolOf(symbolMatrix[0]?.[0]);
    if (symbol === undefined) throw new ArgumentError("symbol is required: give an instrument symbol such as 'MB-AL-0004'");
    const record = await recordInTarget(context.client(), await context.client().instrument(symbol, all), target);
    return INSTRUMENT_FIELDS.map((field) => [field, instrumentCell(record, field, format, context.dateSystem, context.dataTypes)]);
  }
  const symbols = flatten(symbolMatrix);
  checkResultSize(symbols.length + 1, INSTRUMENT_FIELDS.length);
  const client = context.client();
  const rows = await Promise.all(
    symbols.map((cell) =>
      settle(async () => {
        const symbol = symbolOf(cell);
        if (symbol === undefined) return INSTRUMENT_FIELDS.map(() => "");
        const record = await recordInTarget(client, await client.instrument(symbol, all), target);
        return INSTRUMENT_FIELDS.map((field) => instrumentCell(record, field, format, context.dateSystem, context.dataTypes));
      }),
    ),
  );
  // A failed symbol fills its own row with its error.
  const body = rows.map((row): unknown[] => (Array.isArray(row) ? row : INSTRUMENT_FIELDS.map(() => row)));
  return finish(withHeaders(body, INSTRUMENT_FIELDS, 1, ""), context.makeError);
}

export function instruments(
  context: FunctionsContext,
  searchArg: unknown,
  fieldsArg: unknown,
  headersArg: unknown,
  dateFormatArg: unknown,
): Promise<Grid> {
  return run(context, async () => {
    const search = optionalText(searchArg, "search");
    const names = nameList(fieldsArg, "fields");
    const fields = names === undefined ? [...DEFAULT_INSTRUMENTS_FIELDS] : names.map((name) => instrumentFieldOf(name, "fields"));
    const headers = headersOf(headersArg);
    const format = dateFormatOf(dateFormatArg);
    const requested = requestedInstrumentFields(fields);
    checkResultSize(1 + headers, fields.length);
    const all = await context.client().instruments(requested.length > 0 ? requested : undefined);
    const words = search === undefined ? [] : searchWords(search);
    const found = all.filter((record) => matchesWords(record, words));
    if (found.length === 0) {
      // the Commodity list names every commodity, seen or not: it tells a typo from a word outside the entitlement
      const commodities = search === undefined ? undefined : await context.client().references("Commodity").catch(() => undefined);
      throw new NotAvailableError(search === undefined ? "no instrument is available to you" : noMatchReason(all, search, commodities));
    }
    const body = found.map((record) => fields.map((field) => instrumentCell(record, field, format, context.dateSystem, context.dataTypes)));
    return withHeaders(body, fields, headers, search ?? "");
  });
}

export function referenceTypeOf(value: unknown): ReferenceType {
  const single = scalar(value, "type");
  if (isBlank(single)) throw new ArgumentError(`type is required: one of ${REFERENCE_TYPES.join(", ")}`);
  return choiceOf<ReferenceType>(
    single,
    "type",
    REFERENCE_TYPES.map((type) => ({ value: type, aliases: [`${type}s`, type === "UnitOfMeasure" ? "unit" : type] })),
    "Currency",
  );
}

const REFERENCE_COLUMNS = ["id", "description", "sign", "conversions"];

/** Without id: the whole list (id, description, sign, conversions); with id (or a range of ids): descriptions. */
export function reference(context: FunctionsContext, typeArg: unknown, idArg: unknown, headersArg: unknown): Promise<Grid> {
  return run(context, async () => {
    const type = referenceTypeOf(typeArg);
    const headers = headersOf(headersArg);
    const idMatrix = toMatrix(idArg, "id");
    const noId = isSingleCell(idMatrix) && isBlank(idMatrix[0]?.[0]);
    const group = await context.client().references(type);
    if (noId) {
      if (group.items.length === 0) throw new NotAvailableError(`the ${type} list is empty`);
      const body = group.items.map((item) => [item.id, item.description, item.sign, item.availableConversionIds.join(", ")]);
      return withHeaders(body, REFERENCE_COLUMNS, headers, type);
    }
    const byId = new Map(group.items.map((item) => [item.id.toLowerCase(), item]));
    const idItems = readItems(idMatrix, (cell) => optionalText(cell, "id"));
    const grid = await fillGrid(
      crossLayout(idItems, [[{ ok: true, value: null }]]),
      (id) => {
        const item = id === undefined ? undefined : byId.get(id.toLowerCase());
        // settle turns this throw into the cell's error, as it would a rejection
        if (item === undefined) throw new NotAvailableError(`no ${type} with id ${show(id ?? "")}`);
        return Promise.resolve(item.description);
      },
      (id) => id.ok && id.value === undefined,
    );
    return finish(grid, context.makeError);
  });
}

const CONVERSION_COLUMNS = ["kind", "id", "description"];

/** What one instrument's values convert to: its currencies, then its units (kind, id, description). */
export function conversions(context: FunctionsContext, symbolArg: unknown, headersArg: unknown): Promise<Grid> {
  return run(context, async () => {
    const symbol = requiredSymbol(symbolArg);
    const headers = headersOf(headersArg);
    const client = context.client();
    const record = await client.instrument(symbol);
    const { currencies, units } = await conversionsOf(client, record);
    const body = [
      ...currencies.map((item) => ["currency", item.id, item.description]),
      ...units.map((item) => ["unit", item.id, item.description]),
    ];
    if (body.length === 0) throw new NotAvailableError(`'${record.symbol}' converts to no other currency or unit`);
    return withHeaders(body, CONVERSION_COLUMNS, headers, `${record.symbol} (${record.currencyId}/${record.unitOfMeasureId})`);
  });
}
