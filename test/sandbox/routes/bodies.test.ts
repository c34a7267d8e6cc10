/**
 * Price bodies are written straight to JSON text: on generated data (forward curves, corrections, every optional
 * field) each body must be what `JSON.stringify` writes for the same values, match its TypeBox schema, and hold the
 * series' values as `pointAt` reads them; a loaded (column) series must give byte-identical bodies.
 */
import { Value } from "@sinclair/typebox/value";
import type { FastifyInstance } from "fastify";
import { HistoryResponseSchema, PricesResponseSchema, type PriceRecord } from "../../../src/api";
import { buildApp } from "../../../src/sandbox/app";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import type { DataSet, InstrumentData } from "../../../src/sandbox/data/model";
import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";
import { createSeries, pointAt, seriesToPoints } from "../../../src/sandbox/data/series";
import { JsonWriter } from "../../../src/sandbox/data/json";
import { RecordBytesCache, writeFixedPart } from "../../../src/sandbox/service/record-bytes";
import { stubTokenService } from "../service/fixtures";
import { get, must } from "./setup";
import { round } from "./expect";

const TODAY = "2010-12-31";
const ALL_FIELDS = "Fields=appraisalPrice,pricingRationale,lowChangeSincePrevious,midChangeSincePrevious,highChangeSincePrevious,lowChangeSincePreviousProportion,midChangeSincePreviousProportion,highChangeSincePreviousProportion";

let generated: DataSet;
let loaded: DataSet;
let app: FastifyInstance;
let loadedApp: FastifyInstance;
/** Instruments with forward curves, with corrections, and a few others. */
let symbols: string[];

beforeAll(async () => {
  generated = generateDataSet({ today: TODAY });
  // The same values through createSeries: the column store that `--data` loads into.
  loaded = {
    ...generated,
    instruments: generated.instruments.map((i): InstrumentData => ({ ...i, series: createSeries(seriesToPoints(i.series)) })),
  };
  const withCurves = generated.instruments.filter((i) => i.record.hasForwardCurves).slice(0, 3);
  const corrected = generated.instruments.filter((i) => i.series.revision.some((r) => r > 0) && !i.record.hasForwardCurves).slice(0, 3);
  const others = generated.instruments.filter((i) => i.record.symbol.startsWith("FP-")).slice(0, 2);
  symbols = [...withCurves, ...corrected, ...others].map((i) => i.record.symbol);
  app = await buildApp({ data: generated, tokenService: stubTokenService, limits: { maxRecords: 1_000_000 } });
  loadedApp = await buildApp({ data: loaded, tokenService: stubTokenService, limits: { maxRecords: 1_000_000 } });
});

afterAll(async () => {
  await app.close();
  await loadedApp.close();
});

function instrument(symbol: string): InstrumentData {
  return must(generated.instruments.find((i) => i.record.symbol === symbol), symbol);
}

/** The record an assessment gives with every optional price field, computed here from plain points. */
function expectedRecord(points: readonly AssessmentPoint[], index: number): Record<string, unknown> {
  const point = must(points[index]);
  const previous = points[index - 1];
  const change = (key: "low" | "mid" | "high"): number => (previous === undefined ? 0 : round(point[key] - previous[key], 6));
  const proportion = (key: "low" | "mid" | "high"): number =>
    previous === undefined || previous[key] === 0 ? 0 : round((point[key] - previous[key]) / previous[key], 6);
  const record: Record<string, unknown> = {
    date: point.date,
    assessmentDate: point.assessmentDate,
    revision: point.revision,
    low: point.low,
    mid: point.mid,
    high: point.high,
  };
  if (point.forwardCurves !== undefined) record["forwardCurves"] = point.forwardCurves;
  Object.assign(record, {
    appraisalPrice: point.appraisalPrice,
    pricingRationale: point.pricingRationale,
    lowChangeSincePrevious: change("low"),
    midChangeSincePrevious: change("mid"),
    highChangeSincePrevious: change("high"),
    lowChangeSincePreviousProportion: proportion("low"),
    midChangeSincePreviousProportion: proportion("mid"),
    highChangeSincePreviousProportion: proportion("high"),
  });
  return record;
}

describe("price bodies written as JSON text", () => {
  it("covers forward curves and corrected values", () => {
    expect(generated.instruments.filter((i) => i.record.hasForwardCurves).length).toBeGreaterThanOrEqual(3);
    expect(symbols.length).toBeGreaterThanOrEqual(6);
  });

  it("writes a history exactly as JSON.stringify would, to the schema, with every value of every assessment", async () => {
    const answer = await get(app, `/Prices/History?Symbols=${symbols.join(",")}&FromDate=2005-01-01&ToDate=${TODAY}&${ALL_FIELDS}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(JSON.stringify(JSON.parse(answer.text)));
    expect(Value.Check(HistoryResponseSchema, answer.body)).toBe(true);
    const body = answer.body as { instruments: { symbol: string; firstDate: string; lastDate: string; prices: PriceRecord[] }[] };
    expect(body.instruments.map((b) => b.symbol)).toEqual(symbols);
    let curves = 0;
    for (const block of body.instruments) {
      const points = seriesToPoints(instrument(block.symbol).series);
      expect(block.firstDate).toBe(must(points[0]).assessmentDate);
      expect(block.lastDate).toBe(must(points[points.length - 1]).assessmentDate);
      expect(block.prices).toHaveLength(points.length);
      block.prices.forEach((record, k) => {
        const index = points.length - 1 - k;
        expect(record).toEqual(expectedRecord(points, index));
        if (record.forwardCurves !== undefined) curves++;
      });
    }
    expect(curves).toBeGreaterThan(100);
  });

  it("gives the same bytes again once the assessments' JSON is kept, and the same bytes from a loaded series", async () => {
    const path = `/Prices/History?Symbols=${symbols.join(",")}&FromDate=2006-01-01&ToDate=${TODAY}`;
    const first = await get(app, path);
    const again = await get(app, path);
    const fromLoaded = await get(loadedApp, path);
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(fromLoaded.text).toBe(first.text);
    // A short range after the long one: the kept parts stand for assessments in the middle of the series too.
    const short = `/Prices/History?Symbols=${symbols.join(",")}&FromDate=2008-03-03&ToDate=2008-03-14&calendarType=CalendarDays&carryForward=true&${ALL_FIELDS}`;
    const shortAnswer = await get(app, short);
    expect(shortAnswer.text).toBe((await get(loadedApp, short)).text);
    expect(shortAnswer.text).toBe(JSON.stringify(JSON.parse(shortAnswer.text)));
  });

  it("writes /Prices with dates, averages and invalid symbols as JSON.stringify would, to the schema", async () => {
    const dates = "Dates=2004-01-01,2007-02-28,2009-6-1,2010-12-31";
    const cases = [
      `/Prices?Symbols=${symbols.join(",")},NOPE-1&${dates}&${ALL_FIELDS}`,
      `/Prices?Symbols=${symbols.join(",")}`,
      `/Prices/MonthlyAverage?Symbols=${symbols.join(",")}&${dates}&${ALL_FIELDS},assessmentPeriod,evaluationPeriod`,
    ];
    for (const path of cases) {
      const answer = await get(app, path);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(JSON.parse(answer.text)));
      expect(Value.Check(PricesResponseSchema, answer.body)).toBe(true);
      expect(Value.Clean(PricesResponseSchema, structuredClone(answer.body))).toEqual(answer.body);
      expect((await get(loadedApp, path)).text).toBe(answer.text);
    }
    const plain = (await get(app, `/Prices?Symbols=${symbols[0]}&Dates=2009-06-01`)).body as { instruments: { prices: PriceRecord[] }[] };
    const series = instrument(must(symbols[0])).series;
    let index = series.length - 1;
    while (index >= 0 && pointAt(series, index).date > "2009-06-01") index--;
    const point = pointAt(series, index);
    const { appraisalPrice: _a, pricingRationale: _p, ...shown } = point;
    expect(plain.instruments[0]?.prices[0]).toEqual({ ...shown, date: "2009-06-01" });
  });
});

describe("kept assessment parts", () => {
  it("stay within their budget, dropping the least recently used series, and copy back what was written", () => {
    const [a, b] = generated.instruments.filter((i) => i.record.hasForwardCurves).map((i) => i.series);
    const first = must(a);
    const second = must(b);
    const fresh = (series: typeof first, index: number): string => {
      const out = new JsonWriter();
      writeFixedPart(out, series, index);
      return out.text();
    };
    const budget = 200_000;
    const cache = new RecordBytesCache(budget);
    const through = (series: typeof first, index: number): string => {
      const out = new JsonWriter();
      must(cache.of(series)).writeFixed(out, index);
      return out.text();
    };
    const plain = (series: typeof first, index: number): string => {
      const out = new JsonWriter();
      must(cache.of(series)).writePlain(out, index);
      return out.text();
    };
    const own = (series: typeof first, index: number): string => `{"date":"${pointAt(series, index).date}"${fresh(series, index)}}`;
    for (let i = 0; i < first.length; i++) expect(through(first, i)).toBe(fresh(first, i));
    for (let i = first.length - 1; i >= 0; i--) expect(plain(first, i)).toBe(own(first, i));
    for (let i = 0; i < second.length; i++) expect(plain(second, i)).toBe(own(second, i));
    for (let i = 0; i < second.length; i++) expect(through(second, i)).toBe(fresh(second, i));
    // Runs: records kept one after the other come back in one piece, commas between them.
    const out = new JsonWriter();
    const indexes = Int32Array.from({ length: second.length }, (_, k) => k);
    expect(must(cache.of(second)).writePlainRun(out, indexes, 0, indexes.length, () => true)).toBe(indexes.length);
    expect(out.text()).toBe(Array.from(indexes, (i) => own(second, i)).join(","));
    expect(cache.size).toBeLessThanOrEqual(Math.max(budget, must(cache.of(second)).size));
    expect(new RecordBytesCache(0).of(first)).toBeUndefined();
  });

  it("are cut in half by an injected truncate fault, bytes and strings alike", async () => {
    const faulty = await buildApp({ data: generated, tokenService: stubTokenService, limits: { maxRecords: 1_000_000 }, faults: "truncate:1" });
    try {
      for (const path of [`/Prices/History?Symbols=${symbols.join(",")}&FromDate=2005-01-01&ToDate=${TODAY}`, `/Prices?Symbols=${symbols[0]}`]) {
        const full = await app.inject({ url: `/physical/v2${path}`, headers: { authorization: "Bearer full" } });
        const cut = await faulty.inject({ url: `/physical/v2${path}`, headers: { authorization: "Bearer full" } });
        expect(cut.statusCode).toBe(200);
        expect(cut.rawPayload.length).toBeLessThan(full.rawPayload.length);
        expect(full.body.startsWith(cut.body.slice(0, -1))).toBe(true);
        expect(() => JSON.parse(cut.body)).toThrow();
      }
    } finally {
      await faulty.close();
    }
  });
});
