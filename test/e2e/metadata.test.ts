/**
 * INSTRUMENT, INSTRUMENTS and REFERENCE through the runner's page against the sandbox, each cell compared with
 * the service's /Instruments and /References answers over HTTP.
 */
import { instrumentRecords, objects, region, serialOf, startE2E, text, type E2E, type JsonObject } from "./support";

jest.setTimeout(120_000);

const ALL_INSTRUMENT_FIELDS = ["Commodity", "Location", "Currency", "UnitOfMeasure", "Incoterm", "Source", "forecastTypeIds", "hasForwardCurves"];
const REFERENCE_TYPES = ["Currency", "UnitOfMeasure", "PriceCalculationType", "Incoterm", "Commodity", "Source"];

let e2e: E2E;
/** Every record the full client may see, with every optional field. */
let records: JsonObject[];

beforeAll(async () => {
  e2e = await startE2E();
  records = await instrumentRecords(e2e, ALL_INSTRUMENT_FIELDS);
  if (records.length < 3) throw new Error("the sandbox has fewer than 3 instruments");
});

afterAll(async () => {
  await e2e?.close();
});

function recordAt(index: number): JsonObject {
  const record = records[index];
  if (!record) throw new Error(`no instrument #${index}`);
  return record;
}

/** A cell shows a list as comma-separated text and launchDate as a serial unless text is asked. */
function shown(key: string, value: unknown, format: "serial" | "text" = "serial"): unknown {
  if (Array.isArray(value)) return value.join(", ");
  if (key === "launchDate" && format === "serial") return serialOf(text(value, key));
  return value;
}

describe("INSTRUMENT", () => {
  it("returns one field, full names and flags included, for a symbol and for a range of symbols", async () => {
    const chosen = [recordAt(0), recordAt(1), recordAt(2)];
    const fields = ["description", "currencyId", "currency", "unitOfMeasure", "commodity", "launchDate", "priceCalculationTypeIds", "hasForwardCurves", "forecastTypeIds", "status"];
    const cells: Record<string, unknown> = {};
    chosen.forEach((record, index) => (cells[`A${index + 1}`] = record.symbol));
    fields.forEach((field, row) => (cells[`C${row + 1}`] = `=PRICES.INSTRUMENT($A$1, "${field}")`));
    cells.E1 = '=PRICES.INSTRUMENT(A1:A3, "currency")';
    cells.F1 = '=PRICES.INSTRUMENT(A1:A3, "launchDate", "text")';
    cells.G1 = '=PRICES.INSTRUMENT(A1:A3, "UnitOfMeasure")';
    const result = await e2e.evaluate(cells);
    const first = recordAt(0);
    expect(region(result.cells, 2, 1, fields.length, 1)).toEqual(fields.map((field) => [shown(field, first[field])]));
    expect(region(result.cells, 4, 1, 4, 3)).toEqual([
      ...chosen.map((record) => [record.currency, record.launchDate, record.unitOfMeasure]),
      [null, null, null],
    ]);
  });

  it("returns the whole record as name/value rows without a field", async () => {
    const record = recordAt(1);
    const [alone] = objects((await e2e.service("/Instruments", { Symbols: String(record.symbol), Fields: ALL_INSTRUMENT_FIELDS.join(",") })).instruments, "instruments");
    if (!alone) throw new Error("no record");
    const result = await e2e.evaluate({ A1: `=PRICES.INSTRUMENT("${String(record.symbol)}")` });
    const keys = Object.keys(alone);
    const rows = region(result.cells, 0, 1, keys.length + 1, 3);
    expect(rows.slice(keys.length)).toEqual([[null, null, null]]);
    expect(rows.map((row) => row[2])).toEqual(rows.map(() => null));
    expect(Object.fromEntries(rows.slice(0, keys.length).map((row) => [row[0], row[1]]))).toEqual(
      Object.fromEntries(keys.map((key) => [key, shown(key, alone[key])])),
    );
  });
});

describe("INSTRUMENTS", () => {
  /** What the help promises: every word in the symbol, a description or an id, in any case. */
  function found(search: string): JsonObject[] {
    const words = search.toLowerCase().split(/\s+/);
    return records.filter((record) => {
      const haystack = Object.entries(record)
        .filter(([key, value]) => typeof value === "string" && (key === "symbol" || key.startsWith("description") || key.endsWith("Id")))
        .map(([, value]) => String(value).toLowerCase())
        .join("\n");
      return words.every((word) => haystack.includes(word));
    });
  }

  it("lists the instruments matching every word, with the default columns under a row of names", async () => {
    const search = "Ammonia usd";
    const expected = found(search);
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(records.length);
    const result = await e2e.evaluate({ A1: `=PRICES.INSTRUMENTS("${search}")` });
    const columns = ["symbol", "description", "currencyId", "unitOfMeasureId", "frequency"];
    expect(region(result.cells, 0, 1, expected.length + 2, columns.length)).toEqual([
      columns,
      ...expected.map((record) => columns.map((column) => record[column])),
      columns.map(() => null),
    ]);
  });

  it("shows the fields asked, full names included, with each header mode", async () => {
    const search = "ammonia";
    const expected = found(search);
    const columns = ["symbol", "currency", "launchDate", "hasForwardCurves", "priceCalculationTypeIds"];
    const result = await e2e.evaluate({
      A1: columns[0],
      B1: columns[1],
      C1: columns[2],
      D1: columns[3],
      E1: columns[4],
      A3: `=PRICES.INSTRUMENTS("${search}", "${columns.join(",")}", 0, "text")`,
      G3: `=PRICES.INSTRUMENTS("${search}", A1:E1, 2)`,
    });
    const textRows = expected.map((record) => columns.map((column) => shown(column, record[column], "text")));
    const serialRows = expected.map((record) => columns.map((column) => shown(column, record[column])));
    const blank = columns.map(() => null);
    expect(region(result.cells, 0, 3, expected.length + 1, columns.length)).toEqual([...textRows, blank]);
    expect(region(result.cells, 6, 3, expected.length + 3, columns.length)).toEqual([[search, "", "", "", ""], columns, ...serialRows, blank]);
  });

  it("lists every instrument the caller may see without a search", async () => {
    const result = await e2e.evaluate({ A1: '=PRICES.INSTRUMENTS(, "symbol", 0)' });
    expect(region(result.cells, 0, 1, records.length + 1, 1)).toEqual([...records.map((record) => [record.symbol]), [null]]);
  });
});

describe("REFERENCE", () => {
  it("lists each reference type as id, description, sign and conversions", async () => {
    const json = await e2e.service("/References", { Types: REFERENCE_TYPES.join(",") });
    const groups = objects(json.references, "references");
    const cells: Record<string, unknown> = {};
    REFERENCE_TYPES.forEach((type, index) => (cells[`${String.fromCharCode(65 + index * 5)}1`] = `=PRICES.REFERENCE("${type}")`));
    const result = await e2e.evaluate(cells);
    REFERENCE_TYPES.forEach((type, index) => {
      const group = groups.find((item) => item.type === type);
      const items = objects(group?.items, `${type}.items`);
      expect(items.length).toBeGreaterThan(0);
      const rows = items.map((item) => [item.id, item.description, item.sign, (item.availableConversionIds as string[]).join(", ")]);
      expect([type, region(result.cells, index * 5, 1, items.length + 2, 4)]).toEqual([type, [["id", "description", "sign", "conversions"], ...rows, [null, null, null, null]]]);
    });
  });

  it("describes one id, a range of ids and ids in any case; headers 0 and 2 for the list", async () => {
    const json = await e2e.service("/References", { Types: "Currency,UnitOfMeasure" });
    const [currencies, units] = ["Currency", "UnitOfMeasure"].map((type) =>
      objects(objects(json.references, "references").find((group) => group.type === type)?.items, type),
    );
    if (!currencies || !units || currencies.length < 2 || units.length < 3) throw new Error("too few references");
    const [usd, other] = currencies;
    const result = await e2e.evaluate({
      A1: units[0]?.id,
      A2: units[1]?.id,
      A3: units[2]?.id,
      B1: `=PRICES.REFERENCE("Currency", "${String(usd?.id)}")`,
      B2: `=PRICES.REFERENCE("currency", "${String(other?.id).toLowerCase()}")`,
      C1: '=PRICES.REFERENCE("UnitOfMeasure", A1:A3)',
      E1: '=PRICES.REFERENCE("Currency", , 0)',
      J1: '=PRICES.REFERENCE("Currency", , 2)',
    });
    expect(result.cells.B1).toBe(usd?.description);
    expect(result.cells.B2).toBe(other?.description);
    expect(region(result.cells, 2, 1, 4, 1)).toEqual([...units.slice(0, 3).map((unit) => [unit.description]), [null]]);
    const rows = currencies.map((item) => [item.id, item.description, item.sign, (item.availableConversionIds as string[]).join(", ")]);
    expect(region(result.cells, 4, 1, rows.length + 1, 4)).toEqual([...rows, [null, null, null, null]]);
    expect(region(result.cells, 9, 1, rows.length + 3, 4)).toEqual([["Currency", "", "", ""], ["id", "description", "sign", "conversions"], ...rows, [null, null, null, null]]);
  });
});
