import { mkdtemp, readFile, rm, writeFile, mkdir, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportDataSet, loadDataSet, DATA_FORMAT } from "../../../src/sandbox/data/files";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import type { DataSet } from "../../../src/sandbox/data/model";
import { seriesToPoints } from "../../../src/sandbox/data/series";

// A data set frozen in 2008 keeps the files small while still holding every feature.
const TODAY = "2008-12-31";

let root: string;
let data: DataSet;
let exported: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "sandbox-data-"));
  data = generateDataSet({ today: TODAY });
  exported = join(root, "exported");
  await exportDataSet(data, exported);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function plain(set: DataSet): unknown {
  return {
    today: set.today,
    references: set.references,
    instruments: set.instruments.map((i) => ({ record: i.record, forecasts: i.forecasts, points: seriesToPoints(i.series) })),
  };
}

/** A copy of the exported folder whose `file` is rewritten by `edit`. */
async function variant(name: string, file: string, edit: (json: unknown) => unknown): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "assessments"), { recursive: true });
  for (const top of ["dataset.json", "instruments.json", "references.json", "forecasts.json"]) {
    await writeFile(join(dir, top), await readFile(join(exported, top)));
  }
  for (const a of await readdir(join(exported, "assessments"))) {
    await writeFile(join(dir, "assessments", a), await readFile(join(exported, "assessments", a)));
  }
  const json = JSON.parse(await readFile(join(dir, file), "utf8")) as unknown;
  await writeFile(join(dir, file), JSON.stringify(edit(json)));
  return dir;
}

function asArray(json: unknown): Record<string, unknown>[] {
  return json as Record<string, unknown>[];
}

describe("exportDataSet and loadDataSet", () => {
  it("round-trips a data set to equal values", async () => {
    expect(data.instruments.some((i) => i.forecasts.length > 0)).toBe(true);
    expect(data.instruments.some((i) => i.record.hasForwardCurves)).toBe(true);
    expect(data.instruments.some((i) => i.record.status === "Discontinued")).toBe(true);
    expect(data.instruments.some((i) => Array.from(i.series.revision).some((r) => r > 0))).toBe(true);
    const loaded = await loadDataSet(exported);
    expect(plain(loaded)).toEqual(plain(data));
  });

  it("loads two data directories at once, each to its own values", async () => {
    const other = generateDataSet({ today: TODAY, seed: 7 });
    const otherDir = join(root, "other-seed");
    await exportDataSet(other, otherDir);
    const [first, second] = await Promise.all([loadDataSet(exported), loadDataSet(otherDir)]);
    expect(plain(first)).toEqual(plain(data));
    expect(plain(second)).toEqual(plain(other));
  });

  it("writes the documented layout", async () => {
    expect(JSON.parse(await readFile(join(exported, "dataset.json"), "utf8"))).toEqual({ format: DATA_FORMAT, today: TODAY });
    const files = await readdir(join(exported, "assessments"));
    expect(files.sort()).toEqual(data.instruments.map((i) => `${i.record.symbol}.json`).sort());
    const first = data.instruments[0];
    if (first === undefined) throw new Error("no instruments");
    const text = await readFile(join(exported, "assessments", `${first.record.symbol}.json`), "utf8");
    // One assessment per line.
    expect(text.split("\n").length).toBe(first.series.length + 3);
    const forecasts = JSON.parse(await readFile(join(exported, "forecasts.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(forecasts).sort()).toEqual(data.instruments.filter((i) => i.forecasts.length > 0).map((i) => i.record.symbol).sort());
  });

  it("refuses to export into a folder that holds something else", async () => {
    const dir = join(root, "occupied");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "notes.txt"), "mine");
    await expect(exportDataSet(data, dir)).rejects.toThrow(/not empty/);
  });

  it("re-exports over an earlier export, removing files of symbols no longer present", async () => {
    const dir = join(root, "again");
    await exportDataSet(data, dir);
    const smaller: DataSet = { ...data, instruments: data.instruments.slice(0, 5) };
    await exportDataSet(smaller, dir);
    expect((await readdir(join(dir, "assessments"))).length).toBe(5);
    expect((await loadDataSet(dir)).instruments.length).toBe(5);
  });

  it("loads a minimal hand-written data set, filling what may be left out", async () => {
    const dir = join(root, "minimal");
    await mkdir(join(dir, "assessments"), { recursive: true });
    await writeFile(join(dir, "dataset.json"), JSON.stringify({ format: DATA_FORMAT, today: "2024-03-08" }));
    const item = (id: string, description: string) => ({ id, description, sign: "", availableConversionIds: [] });
    await writeFile(
      join(dir, "references.json"),
      JSON.stringify([
        { type: "Currency", items: [item("USD", "US Dollar")] },
        { type: "UnitOfMeasure", items: [item("MT", "Metric tonne")] },
        { type: "Incoterm", items: [item("CIF", "Cost, Insurance and Freight")] },
        { type: "Commodity", items: [item("ALUMINIUM", "Aluminium")] },
        { type: "Source", items: [item("ME", "My desk")] },
      ]),
    );
    await writeFile(
      join(dir, "instruments.json"),
      JSON.stringify([
        {
          symbol: "MY-AL-0001", productId: "AL", description: "Aluminium, cif Rotterdam, $/tonne", descriptionShort: "Al cif Rdam",
          commodityId: "ALUMINIUM", priceType: "Price", locationId: "NLRTM", currencyId: "USD", unitOfMeasureId: "MT",
          incotermId: "CIF", launchDate: "2024-03-01", frequency: "Daily", sourceId: "ME", status: "Active",
          priceCalculationTypeIds: ["MonthlyAverage"],
        },
      ]),
    );
    await writeFile(join(dir, "assessments", "MY-AL-0001.json"), JSON.stringify([{ date: "2024-03-01", low: 1, mid: 2, high: 3 }, { date: "2024-3-4", low: 2, mid: 2, high: 2 }]));
    const loaded = await loadDataSet(dir);
    const instrument = loaded.instruments[0];
    if (instrument === undefined) throw new Error("nothing loaded");
    expect(instrument.record).toMatchObject({ commodity: "Aluminium", currency: "US Dollar", location: "NLRTM", source: "My desk", forecastTypeIds: [], hasForwardCurves: false });
    expect(loaded.references.map((g) => g.type)).toEqual(["Currency", "UnitOfMeasure", "PriceCalculationType", "Incoterm", "Commodity", "Source"]);
    expect(seriesToPoints(instrument.series)).toEqual([
      { date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: 0, low: 1, mid: 2, high: 3, appraisalPrice: false, pricingRationale: "" },
      { date: "2024-03-04", assessmentDate: "2024-03-04T16:30:00+00:00", revision: 0, low: 2, mid: 2, high: 2, appraisalPrice: false, pricingRationale: "" },
    ]);
  });
});

describe("loadDataSet errors name the file, the item and the field", () => {
  const symbolAt = (k: number): string => data.instruments[k]?.record.symbol ?? "";

  it("a value of the wrong type in an assessment", async () => {
    const symbol = symbolAt(0);
    const dir = await variant("bad-mid", `assessments/${symbol}.json`, (json) => {
      const points = asArray(json);
      (points[12] as Record<string, unknown>)["mid"] = "12.5";
      return points;
    });
    await expect(loadDataSet(dir)).rejects.toThrow(`assessments/${symbol}.json[12].mid: expected a number, got "12.5"`);
  });

  it("low above high, dates out of order", async () => {
    const symbol = symbolAt(1);
    const swapped = await variant("bad-order", `assessments/${symbol}.json`, (json) => {
      const points = asArray(json);
      const third = points[3];
      points[3] = points[2] as Record<string, unknown>;
      points[2] = third as Record<string, unknown>;
      return points;
    });
    await expect(loadDataSet(swapped)).rejects.toThrow(new RegExp(`assessments/${symbol}\\.json\\[3\\]\\.date: .* must come after`));
    const inverted = await variant("bad-range", `assessments/${symbol}.json`, (json) => {
      const points = asArray(json);
      (points[0] as Record<string, unknown>)["low"] = 1e9;
      return points;
    });
    await expect(loadDataSet(inverted)).rejects.toThrow(new RegExp(`assessments/${symbol}\\.json\\[0\\]\\.mid: expected low <= mid <= high`));
  });

  it("an id that references.json does not hold", async () => {
    const dir = await variant("bad-currency", "instruments.json", (json) => {
      const records = asArray(json);
      (records[4] as Record<string, unknown>)["currencyId"] = "XYZ";
      return records;
    });
    await expect(loadDataSet(dir)).rejects.toThrow("instruments.json[4].currencyId: XYZ is not a Currency id in references.json");
  });

  it("a missing field, a bad frequency, a duplicate symbol", async () => {
    const missing = await variant("missing-field", "instruments.json", (json) => {
      const records = asArray(json);
      delete (records[2] as Record<string, unknown>)["description"];
      return records;
    });
    await expect(loadDataSet(missing)).rejects.toThrow("instruments.json[2].description: expected a non-empty string, got nothing");
    const frequency = await variant("bad-frequency", "instruments.json", (json) => {
      const records = asArray(json);
      (records[0] as Record<string, unknown>)["frequency"] = "Hourly";
      return records;
    });
    await expect(loadDataSet(frequency)).rejects.toThrow(/instruments\.json\[0\]\.frequency: expected one of Daily, Twice weekly, Weekly, Monthly/);
    const duplicate = await variant("duplicate", "instruments.json", (json) => {
      const records = asArray(json);
      return [...records, records[0]];
    });
    await expect(loadDataSet(duplicate)).rejects.toThrow(new RegExp(`instruments\\.json\\[${data.instruments.length}\\]\\.symbol: ${symbolAt(0)} appears twice`));
  });

  it("a wrong type, a missing field and an unknown field, in any file", async () => {
    const wrongType = await variant("wrong-type", "instruments.json", (json) => {
      const records = asArray(json);
      (records[1] as Record<string, unknown>)["hasForwardCurves"] = "yes";
      return records;
    });
    await expect(loadDataSet(wrongType)).rejects.toThrow('instruments.json[1].hasForwardCurves: expected true or false, got "yes"');
    const wrongSign = await variant("wrong-sign", "references.json", (json) => {
      const groups = json as { items: Record<string, unknown>[] }[];
      const item = groups[0]?.items[2];
      if (item !== undefined) item["sign"] = 5;
      return groups;
    });
    await expect(loadDataSet(wrongSign)).rejects.toThrow("references.json[0].items[2].sign: expected a string (may be empty), got 5");
    const missing = await variant("missing-today", "dataset.json", () => ({ format: DATA_FORMAT }));
    await expect(loadDataSet(missing)).rejects.toThrow("dataset.json.today: expected a date YYYY-MM-DD, got nothing");
    const unknown = await variant("unknown-field", "instruments.json", (json) => {
      const records = asArray(json);
      (records[3] as Record<string, unknown>)["currencyID"] = "USD";
      return records;
    });
    await expect(loadDataSet(unknown)).rejects.toThrow(/^instruments\.json\[3\]\.currencyID: is not a field of an instrument record object \(the fields are symbol, productId, .*, hasForwardCurves\)$/);
    const withForecast = data.instruments.find((i) => i.forecasts.length > 0)?.record.symbol ?? "";
    const unknownInForecast = await variant("unknown-forecast-field", "forecasts.json", (json) => {
      const all = json as Record<string, { prices: Record<string, unknown>[] }[]>;
      const price = all[withForecast]?.[0]?.prices[1];
      if (price !== undefined) price["midd"] = 1;
      return all;
    });
    await expect(loadDataSet(unknownInForecast)).rejects.toThrow(`forecasts.json.${withForecast}[0].prices[1].midd: is not a field of an object {"date", "low", "mid", "high"}`);
  });

  it("an instrument without its assessments file, and an assessments file without its instrument", async () => {
    const dropped = await variant("dropped", "instruments.json", (json) => asArray(json).slice(1));
    await expect(loadDataSet(dropped)).rejects.toThrow(`assessments/${symbolAt(0)}.json: no instrument ${symbolAt(0)} in instruments.json`);
    const dir = await variant("no-file", "dataset.json", (json) => json);
    await rm(join(dir, "assessments", `${symbolAt(0)}.json`));
    await expect(loadDataSet(dir)).rejects.toThrow(`assessments/${symbolAt(0)}.json: missing`);
  });

  it("a wrong format, an assessment after today, invalid JSON, a bad forecast", async () => {
    const format = await variant("bad-format", "dataset.json", () => ({ format: "other/1", today: TODAY }));
    await expect(loadDataSet(format)).rejects.toThrow(/dataset\.json\.format: expected "physical-prices-sandbox-data\/1"/);
    const early = await variant("early-today", "dataset.json", () => ({ format: DATA_FORMAT, today: "2008-06-30" }));
    await expect(loadDataSet(early)).rejects.toThrow(/assessments\/.*\.json\[\d+\]\.date: 2008-.* is after today \(2008-06-30\) in dataset\.json/);
    const dir = await variant("bad-json", "dataset.json", (json) => json);
    await writeFile(join(dir, "references.json"), "[{");
    await expect(loadDataSet(dir)).rejects.toThrow(/^references\.json: not valid JSON/);
    const withForecast = data.instruments.find((i) => i.forecasts.length > 0)?.record.symbol ?? "";
    const forecast = await variant("bad-forecast", "forecasts.json", (json) => {
      const all = json as Record<string, Record<string, unknown>[]>;
      const first = all[withForecast]?.[0];
      if (first !== undefined) first["publicationDate"] = "2008-12-01";
      return all;
    });
    await expect(loadDataSet(forecast)).rejects.toThrow(`forecasts.json.${withForecast}[0].publicationDate: expected an ISO 8601 UTC date-time with milliseconds`);
  });
});
