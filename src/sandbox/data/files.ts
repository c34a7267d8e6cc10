/**
 * The data set as human-editable JSON files (docs/sandbox-data.md): `--export DIR` writes them and
 * `--data DIR` loads them. Loading checks everything and names the file, the item and the field at fault.
 */
import { mkdir, open, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  REFERENCE_TYPES,
  fromEpochDay,
  parseIsoDate,
  type InstrumentRecord,
  type ReferenceGroup,
  type ReferenceItem,
  type ReferenceType,
} from "../../api";
import { FX_BASE } from "./fx-rates";
import { FX_FILE, fxRatesText, loadFxRates } from "./fx-file";
import type { DataSet, ForecastData, InstrumentData } from "./model";
import { calculationTypeReference } from "./references";
import type { AssessmentPoint } from "./assessment-point";
import { DataError, describe } from "./data-error";
import { DATA_FORMAT, DatasetFile, FileFormat, ForecastsFile, InstrumentsFile, ReferencesFile, type InstrumentFileRecord } from "./file-schemas";
import { midOf } from "./mids";
import { readSeries, seriesToPoints } from "./series";

export { DATA_FORMAT };
export const DATASET_FILE = "dataset.json";
export const INSTRUMENTS_FILE = "instruments.json";
export const REFERENCES_FILE = "references.json";
export const FORECASTS_FILE = "forecasts.json";
export const ASSESSMENTS_DIR = "assessments";
/** A symbol must be usable as a file name. */
const SYMBOL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function fail(where: string, problem: string): never {
  throw new DataError(where, problem);
}

const DATASET = new FileFormat(DatasetFile);
const REFERENCES = new FileFormat(ReferencesFile);
const INSTRUMENTS = new FileFormat(InstrumentsFile);
const FORECASTS = new FileFormat(ForecastsFile);

async function readJson(dir: string, file: string, optional = false): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(join(dir, file), "utf8");
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    fail(file, `cannot be read in ${dir}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    fail(file, `not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * One buffer reused for every assessments file of one load: its files are read one at a time. Each load has its
 * own (a module-level one let two loads at once read each other's bytes).
 */
class FileBuffer {
  #buffer = Buffer.allocUnsafeSlow(1 << 20);

  /** The file's bytes, valid until the next read. */
  async read(path: string): Promise<Buffer> {
    const handle = await open(path, "r");
    try {
      const { size } = await handle.stat();
      if (size > this.#buffer.length) this.#buffer = Buffer.allocUnsafeSlow(size + (size >> 2));
      let read = 0;
      while (read < size) {
        const { bytesRead } = await handle.read(this.#buffer, read, size - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return this.#buffer.subarray(0, read);
    } finally {
      await handle.close();
    }
  }
}

const NEWLINE = 0x0a;

/**
 * An assessments file as written by the export, one assessment per line between `[` and `]`, is parsed line by
 * line straight from its bytes: the same values as one `JSON.parse`, but no copy of the whole file as a string
 * and only one line's objects alive at a time, which keeps loading the full export small. Any other layout
 * returns undefined (it is then parsed whole).
 */
function parseLines(bytes: Buffer): unknown[] | undefined {
  const lines: [number, number][] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end < 0) end = bytes.length;
    lines.push([start, end]);
    start = end + 1;
  }
  const text = (k: number): string => {
    const [from, to] = lines[k] as [number, number];
    return bytes.toString("utf8", from, to).trim();
  };
  let last = lines.length - 1;
  while (last >= 0 && text(last) === "") last--;
  if (last < 1 || text(0) !== "[" || text(last) !== "]") return undefined;
  const items: unknown[] = [];
  for (let i = 1; i < last; i++) {
    let line = text(i);
    if (i < last - 1) {
      if (!line.endsWith(",")) return undefined;
      line = line.slice(0, -1);
    }
    if (!line.startsWith("{") || !line.endsWith("}")) return undefined;
    try {
      items.push(JSON.parse(line));
    } catch {
      return undefined;
    }
  }
  return items;
}

async function readAssessments(dir: string, file: string, buffer: FileBuffer): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await buffer.read(join(dir, file));
  } catch (error) {
    fail(file, `cannot be read in ${dir}: ${(error as Error).message}`);
  }
  const items = parseLines(bytes);
  if (items !== undefined) return items;
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch (error) {
    fail(file, `not valid JSON: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Export

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** One assessment per line: readable, and a diff shows exactly which days changed. */
function assessmentsText(points: readonly AssessmentPoint[]): string {
  return `[\n${points.map((point) => `  ${JSON.stringify(point)}`).join(",\n")}\n]\n`;
}

/**
 * Writes the data set to `dir` (created if needed). Overwriting an earlier export removes its
 * assessment files for symbols no longer present; any other non-empty folder is refused.
 */
export async function exportDataSet(data: DataSet, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const existing = await readdir(dir);
  if (existing.length > 0 && !existing.includes(DATASET_FILE)) {
    throw new Error(`${dir} is not empty and holds no ${DATASET_FILE}: choose an empty folder or an earlier export`);
  }
  const assessmentsDir = join(dir, ASSESSMENTS_DIR);
  await mkdir(assessmentsDir, { recursive: true });
  const symbols = new Set(data.instruments.map((instrument) => instrument.record.symbol));
  for (const file of await readdir(assessmentsDir)) {
    if (file.endsWith(".json") && !symbols.has(file.slice(0, -5))) await rm(join(assessmentsDir, file));
  }
  await writeFile(join(dir, DATASET_FILE), pretty({ format: DATA_FORMAT, today: data.today }));
  await writeFile(join(dir, INSTRUMENTS_FILE), pretty(data.instruments.map((instrument) => instrument.record)));
  await writeFile(join(dir, REFERENCES_FILE), pretty(data.references));
  const forecasts: Record<string, ForecastData[]> = {};
  for (const instrument of data.instruments) {
    if (instrument.forecasts.length > 0) forecasts[instrument.record.symbol] = instrument.forecasts;
  }
  await writeFile(join(dir, FORECASTS_FILE), pretty(forecasts));
  if (data.fxRates !== undefined) await writeFile(join(dir, FX_FILE), fxRatesText(data.fxRates, FX_BASE));
  else await rm(join(dir, FX_FILE), { force: true });
  for (const instrument of data.instruments) {
    await writeFile(join(assessmentsDir, `${instrument.record.symbol}.json`), assessmentsText(seriesToPoints(instrument.series)));
  }
}

// ---------------------------------------------------------------------------------------------
// Load

function loadDataset(value: unknown): string {
  const dataset = DATASET.check(value, DATASET_FILE);
  return parseIsoDate(dataset.today) ?? fail(`${DATASET_FILE}.today`, `expected a date YYYY-MM-DD, got ${describe(dataset.today)}`);
}

function loadReferences(value: unknown): ReferenceGroup[] {
  const file = REFERENCES_FILE;
  const groups = new Map<ReferenceType, ReferenceGroup>();
  REFERENCES.check(value, file).forEach((group, g) => {
    const where = `${file}[${g}]`;
    if (groups.has(group.type)) fail(`${where}.type`, `${group.type} appears twice`);
    const ids = new Set<string>();
    // Rebuilt in the contract's field order, whatever the file's.
    const items = group.items.map(({ id, description, sign, availableConversionIds }, i): ReferenceItem => {
      if (ids.has(id)) fail(`${where}.items[${i}].id`, `${id} appears twice in ${group.type}`);
      ids.add(id);
      return { id, description, sign, availableConversionIds };
    });
    groups.set(group.type, { type: group.type, items });
  });
  if (!groups.has("PriceCalculationType")) groups.set("PriceCalculationType", calculationTypeReference());
  return REFERENCE_TYPES.map((type) => groups.get(type) ?? fail(file, `the ${type} group is missing`));
}

/** Dates the pattern lets through but no calendar holds (2025-13-45T...). */
function checkInstant(date: string, where: string): void {
  if (Number.isNaN(Date.parse(date))) fail(where, `expected an ISO 8601 UTC date-time with milliseconds, got ${describe(date)}`);
}

function loadForecasts(value: unknown): Map<string, ForecastData[]> {
  const file = FORECASTS_FILE;
  const result = new Map<string, ForecastData[]>();
  if (value === undefined) return result;
  for (const [symbol, list] of Object.entries(FORECASTS.check(value, file))) {
    const types = new Set<string>();
    const forecasts = list.map((forecast, f): ForecastData => {
      const at = `${file}.${symbol}[${f}]`;
      if (types.has(forecast.type)) fail(`${at}.type`, `${forecast.type} appears twice for ${symbol}`);
      types.add(forecast.type);
      checkInstant(forecast.publicationDate, `${at}.publicationDate`);
      let previous = "";
      const prices = forecast.prices.map(({ date, low, mid, high }, p) => {
        const pat = `${at}.prices[${p}]`;
        checkInstant(date, `${pat}.date`);
        if (date <= previous) fail(`${pat}.date`, `${date} must come after ${previous} (ascending)`);
        previous = date;
        if (!(low <= mid && mid <= high)) fail(`${pat}.mid`, `expected low <= mid <= high, got low ${low}, mid ${mid}, high ${high}`);
        // Checked, then replaced by the rounded midpoint, as assessments' and curves' mids are (convention 10).
        return { date, low, mid: midOf(low, high), high };
      });
      return { type: forecast.type, version: forecast.version, publicationDate: forecast.publicationDate, prices };
    });
    result.set(symbol, forecasts);
  }
  return result;
}

type References = Map<ReferenceType, Map<string, ReferenceItem>>;

/** The reference item an id names, or an error naming the field. */
function referenced(refs: References, type: ReferenceType, id: string, where: string): ReferenceItem {
  return refs.get(type)?.get(id) ?? fail(where, `${id} is not a ${type} id in ${REFERENCES_FILE}`);
}

/** The checks a schema cannot say: the symbol names a file, the date exists, the ids are in references.json. */
function loadRecord(value: InstrumentFileRecord, index: number, refs: References): InstrumentRecord {
  const where = `${INSTRUMENTS_FILE}[${index}]`;
  const { symbol, locationId } = value;
  if (!SYMBOL_PATTERN.test(symbol)) fail(`${where}.symbol`, `${symbol} must be letters, digits, '.', '_' or '-' (it names a file)`);
  const launchDate = parseIsoDate(value.launchDate) ?? fail(`${where}.launchDate`, `expected a date YYYY-MM-DD, got ${describe(value.launchDate)}`);
  value.priceCalculationTypeIds.forEach((id, i) => {
    if (refs.get("PriceCalculationType")?.has(id) !== true) fail(`${where}.priceCalculationTypeIds[${i}]`, `${id} is not a PriceCalculationType id in ${REFERENCES_FILE}`);
  });
  const commodity = referenced(refs, "Commodity", value.commodityId, `${where}.commodityId`);
  const currency = referenced(refs, "Currency", value.currencyId, `${where}.currencyId`);
  const unit = referenced(refs, "UnitOfMeasure", value.unitOfMeasureId, `${where}.unitOfMeasureId`);
  const incoterm = referenced(refs, "Incoterm", value.incotermId, `${where}.incotermId`);
  const source = referenced(refs, "Source", value.sourceId, `${where}.sourceId`);
  const record: InstrumentRecord = {
    symbol,
    productId: value.productId,
    description: value.description,
    descriptionShort: value.descriptionShort,
    commodityId: commodity.id,
    priceType: value.priceType,
    locationId,
    currencyId: currency.id,
    unitOfMeasureId: unit.id,
    incotermId: incoterm.id,
    launchDate,
    frequency: value.frequency,
    sourceId: source.id,
    status: value.status,
    priceCalculationTypeIds: value.priceCalculationTypeIds,
    commodity: value.commodity ?? commodity.description,
    location: value.location ?? locationId,
    currency: value.currency ?? currency.description,
    unitOfMeasure: value.unitOfMeasure ?? unit.description,
    incoterm: value.incoterm ?? incoterm.description,
    source: value.source ?? source.description,
  };
  if (value.forecastTypeIds !== undefined) record.forecastTypeIds = value.forecastTypeIds;
  if (value.hasForwardCurves !== undefined) record.hasForwardCurves = value.hasForwardCurves;
  return record;
}

/**
 * Reads a data set written by `exportDataSet` or by hand. Throws a `DataError` whose message starts with
 * the file, item and field at fault, e.g. `assessments/MB-AL-0004.json[12].mid: expected a number, got "x"`.
 */
export async function loadDataSet(dir: string): Promise<DataSet> {
  const today = loadDataset(await readJson(dir, DATASET_FILE));
  const references = loadReferences(await readJson(dir, REFERENCES_FILE));
  const refs: References = new Map(references.map((group) => [group.type as ReferenceType, new Map(group.items.map((item) => [item.id, item]))]));
  const loaded = INSTRUMENTS.check(await readJson(dir, INSTRUMENTS_FILE), INSTRUMENTS_FILE).map((value, i) => loadRecord(value, i, refs));
  const indexBySymbol = new Map<string, number>();
  loaded.forEach((record, i) => {
    const earlier = indexBySymbol.get(record.symbol);
    if (earlier !== undefined) fail(`${INSTRUMENTS_FILE}[${i}].symbol`, `${record.symbol} appears twice (also at [${earlier}])`);
    indexBySymbol.set(record.symbol, i);
  });

  const forecasts = loadForecasts(await readJson(dir, FORECASTS_FILE, true));
  for (const symbol of forecasts.keys()) {
    if (!indexBySymbol.has(symbol)) fail(`${FORECASTS_FILE}.${symbol}`, `no instrument ${symbol} in ${INSTRUMENTS_FILE}`);
  }

  let files: string[];
  try {
    files = (await readdir(join(dir, ASSESSMENTS_DIR))).filter((file) => file.endsWith(".json"));
  } catch (error) {
    fail(`${ASSESSMENTS_DIR}/`, `cannot be read in ${dir}: ${(error as Error).message}`);
  }
  for (const file of files) {
    if (!indexBySymbol.has(file.slice(0, -5))) fail(`${ASSESSMENTS_DIR}/${file}`, `no instrument ${file.slice(0, -5)} in ${INSTRUMENTS_FILE}`);
  }

  const instruments: InstrumentData[] = [];
  const buffer = new FileBuffer();
  for (const [i, record] of loaded.entries()) {
    const where = `${INSTRUMENTS_FILE}[${i}]`;
    const file = `${ASSESSMENTS_DIR}/${record.symbol}.json`;
    if (!files.includes(`${record.symbol}.json`)) fail(file, `missing: every instrument in ${INSTRUMENTS_FILE} needs its assessments`);
    const raw = await readAssessments(dir, file, buffer);
    if (!Array.isArray(raw) || raw.length === 0) fail(file, `expected a non-empty array of assessments, got ${describe(raw)}`);
    const series = readSeries(raw, file, true);
    const last = series.days[series.length - 1] ?? 0;
    const lastDate = fromEpochDay(last);
    if (lastDate > today) fail(`${file}[${series.length - 1}].date`, `${lastDate} is after today (${today}) in ${DATASET_FILE}`);

    const instrumentForecasts = forecasts.get(record.symbol) ?? [];
    const forecastTypes = instrumentForecasts.map((forecast) => forecast.type);
    if (record.forecastTypeIds === undefined) {
      record.forecastTypeIds = forecastTypes;
    } else {
      for (const type of record.forecastTypeIds) {
        if (!forecastTypes.includes(type)) fail(`${where}.forecastTypeIds`, `${type} has no forecast for ${record.symbol} in ${FORECASTS_FILE}`);
      }
      for (const type of forecastTypes) {
        if (!record.forecastTypeIds.includes(type)) fail(`${where}.forecastTypeIds`, `lacks ${type}, which ${FORECASTS_FILE} holds for ${record.symbol}`);
      }
    }
    const curves = series.hasForwardCurves;
    if (record.hasForwardCurves === undefined) {
      record.hasForwardCurves = curves;
    } else if (record.hasForwardCurves !== curves) {
      fail(`${where}.hasForwardCurves`, `is ${String(record.hasForwardCurves)} but ${file} ${curves ? "has" : "has no"} forwardCurves`);
    }
    instruments.push({ record: record as Required<InstrumentRecord>, series, forecasts: instrumentForecasts });
  }
  instruments.sort((a, b) => (a.record.symbol < b.record.symbol ? -1 : a.record.symbol > b.record.symbol ? 1 : 0));
  const fxFile: unknown = await readJson(dir, FX_FILE, true);
  if (fxFile === undefined) return { today, instruments, references };
  return { today, instruments, references, fxRates: loadFxRates(fxFile) };
}
