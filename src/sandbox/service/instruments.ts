/** `/Instruments` (spec 4.4, conventions 17, 19) and `/References` (spec 4.5). */
import {
  INSTRUMENT_OPTIONAL_FIELDS,
  type InstrumentFieldName,
  type InstrumentRecord,
  type InstrumentsResponse,
  type ReferencesRequest,
  type ReferencesResponse,
} from "../../api";
import type { InstrumentData } from "../data/model";
import { withInvalid, type ApiCaller, type Catalogue } from "./catalogue";
import type { ParsedInstrumentsRequest } from "./requests";

function instrumentRecord(instrument: InstrumentData, fields: readonly InstrumentFieldName[]): InstrumentRecord {
  const full = instrument.record;
  const record: InstrumentRecord = {
    symbol: full.symbol,
    productId: full.productId,
    description: full.description,
    descriptionShort: full.descriptionShort,
    commodityId: full.commodityId,
    priceType: full.priceType,
    locationId: full.locationId,
    currencyId: full.currencyId,
    unitOfMeasureId: full.unitOfMeasureId,
    incotermId: full.incotermId,
    launchDate: full.launchDate,
    frequency: full.frequency,
    sourceId: full.sourceId,
    status: full.status,
    priceCalculationTypeIds: full.priceCalculationTypeIds,
  };
  const target = record as Record<string, unknown>;
  for (const field of fields) {
    const key = INSTRUMENT_OPTIONAL_FIELDS[field];
    target[key] = full[key];
  }
  return record;
}

export function instrumentsQuery(catalogue: Catalogue, caller: ApiCaller, request: ParsedInstrumentsRequest): InstrumentsResponse {
  const fields = request.fields as InstrumentFieldName[];
  if (request.symbols === undefined) {
    return { instruments: catalogue.visible(caller).map((instrument) => instrumentRecord(instrument, fields)) };
  }
  const { found, invalid } = catalogue.resolve(request.symbols, caller);
  return withInvalid({ instruments: found.map((instrument) => instrumentRecord(instrument, fields)) }, invalid);
}

/** The groups asked for, in the order asked; references are public lists, the same for every caller. */
export function referencesQuery(catalogue: Catalogue, request: ReferencesRequest): ReferencesResponse {
  const references = request.types.map(
    (type) => catalogue.data.references.find((group) => group.type.toLowerCase() === type.toLowerCase()) ?? { type, items: [] },
  );
  return { references };
}
