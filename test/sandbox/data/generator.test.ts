import { createHash } from "node:crypto";
import { REFERENCE_TYPES, todayIso } from "../../../src/api";
import { COMMODITIES, CURRENCIES, type ProductDef } from "../../../src/sandbox/data/catalogue";
import { DEFAULT_SEED, generateDataSet, generateDataSetInSteps } from "../../../src/sandbox/data/generator";
import type { DataSet, InstrumentData } from "../../../src/sandbox/data/model";
import { JsonWriter } from "../../../src/sandbox/data/json";
import { pointAt } from "../../../src/sandbox/data/series";

const TODAY = "2025-06-30";
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAY_MS = 86_400_000;

// Written here from Date, independently of the generator's own calendar arithmetic.
function dateOf(day: number): Date {
  return new Date(day * DAY_MS);
}
function isoOf(day: number): string {
  return dateOf(day).toISOString().slice(0, 10);
}
/** 0 = Sunday ... 6 = Saturday, as Date counts. */
function utcDay(day: number): number {
  return dateOf(day).getUTCDay();
}
function isWeekday(day: number): boolean {
  const d = utcDay(day);
  return d >= 1 && d <= 5;
}
function dayNumber(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
}
function days(instrument: InstrumentData): number[] {
  return Array.from(instrument.series.days);
}

let data: DataSet;
beforeAll(() => {
  data = generateDataSet({ seed: DEFAULT_SEED, today: TODAY });
});

describe("generateDataSetInSteps", () => {
  it("builds the same data as generateDataSet, handing the event loop back while it does", async () => {
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    const stepped = await generateDataSetInSteps({ seed: DEFAULT_SEED, today: TODAY });
    clearInterval(counting);
    expect(turns).toBeGreaterThan(0);
    expect(stepped.instruments.map((item) => item.record)).toEqual(data.instruments.map((item) => item.record));
    const digest = (set: DataSet): string => {
      const hash = createHash("sha256");
      for (const item of set.instruments) hash.update(JSON.stringify([Array.from(item.series.days), Array.from(item.series.mid), item.forecasts]));
      return hash.digest("hex");
    };
    expect(digest(stepped)).toBe(digest(data));
    expect(stepped.references).toEqual(data.references);
  });
});

describe("generateDataSet: instruments", () => {
  it("builds at least 300 instruments, sorted by unique symbol", () => {
    expect(data.today).toBe(TODAY);
    expect(data.instruments.length).toBeGreaterThanOrEqual(300);
    const symbols = data.instruments.map((i) => i.record.symbol);
    expect(new Set(symbols).size).toBe(symbols.length);
    expect(symbols).toEqual([...symbols].sort());
  });

  it("writes symbols like MB-AL-0004, AG-WHE-0058 and FP-PLP-0034, metals a large minority", () => {
    const symbols = data.instruments.map((i) => i.record.symbol);
    for (const symbol of symbols) expect(symbol).toMatch(/^(MB|AG|FP)-[A-Z]{1,3}-\d{4}$/);
    const share = (prefix: string): number => symbols.filter((s) => s.startsWith(prefix)).length / symbols.length;
    expect(share("MB-")).toBeGreaterThan(0.3);
    expect(share("MB-")).toBeLessThan(0.5);
    expect(share("AG-")).toBeGreaterThan(0.2);
    expect(share("FP-")).toBeGreaterThan(0.15);
    for (const code of ["MB-AL-", "MB-CU-", "MB-NI-", "MB-ZN-", "MB-PB-", "MB-SN-", "MB-CO-", "MB-LI-", "MB-STE-", "AG-WHE-", "AG-CRN-", "AG-SOY-", "AG-SUG-", "AG-COF-", "FP-PLP-", "FP-LBR-", "FP-OSB-"]) {
      expect(symbols.some((s) => s.startsWith(code))).toBe(true);
    }
  });

  it("always includes the example symbols of the docs and the functions' help, for any seed", () => {
    for (const seed of [DEFAULT_SEED, 1, 987654]) {
      const symbols = new Set(generateDataSet({ seed, today: TODAY }).instruments.map((i) => i.record.symbol));
      for (const example of ["MB-AL-0004", "AG-WHE-0058", "FP-PLP-0034"]) expect(symbols.has(example)).toBe(true);
    }
  });

  it("fills every field of an instrument record, optional ones included", () => {
    for (const { record } of data.instruments) {
      for (const field of ["symbol", "productId", "description", "descriptionShort", "commodityId", "priceType", "locationId", "currencyId", "unitOfMeasureId", "incotermId", "launchDate", "frequency", "sourceId", "status", "commodity", "location", "currency", "unitOfMeasure", "incoterm", "source"] as const) {
        expect(typeof record[field]).toBe("string");
        expect(record[field].length).toBeGreaterThan(0);
      }
      expect(["Price", "Premium/Discount"]).toContain(record.priceType);
      expect(["Daily", "Twice weekly", "Weekly", "Monthly"]).toContain(record.frequency);
      expect(["Active", "Discontinued"]).toContain(record.status);
      expect(record.launchDate >= "2005-01-01").toBe(true);
      expect(Array.isArray(record.priceCalculationTypeIds)).toBe(true);
      expect(typeof record.hasForwardCurves).toBe("boolean");
      expect(Array.isArray(record.forecastTypeIds)).toBe(true);
    }
  });

  it("describes instruments the way price reporters do", () => {
    const descriptions = data.instruments.map((i) => i.record.description);
    expect(descriptions.some((d) => /^Aluminium P1020A( premium)?, in-whs Rotterdam, duty (un)?paid, \$\/tonne$/.test(d))).toBe(true);
    for (const { record } of data.instruments) {
      expect(record.description).toMatch(/, (in-whs|ddp|cif|cfr|fob|fob mill|fob barge|exw|delivered|delivered mill) [^,]+(, [a-z ]+)?, \S+\/[a-z0-9 ]+$/);
    }
    expect(new Set(descriptions).size).toBe(descriptions.length);
    const currencies = new Set(data.instruments.map((i) => i.record.currencyId));
    for (const currency of ["USD", "EUR", "CNY", "GBP", "JPY", "INR", "BRL"]) expect(currencies).toContain(currency);
    const incoterms = new Set(data.instruments.map((i) => i.record.incotermId));
    for (const incoterm of ["CIF", "FOB", "CFR", "DDP", "DAP", "EXW"]) expect(incoterms).toContain(incoterm);
    const units = new Set(data.instruments.map((i) => i.record.unitOfMeasure));
    for (const unit of ["Metric tonne", "Kilogram", "Pound", "Bushel", "Short ton", "Cubic metre", "Thousand board feet"]) expect(units).toContain(unit);
  });

  it("uses all four frequencies and gives daily instruments the four averages", () => {
    const byFrequency = new Map<string, InstrumentData[]>();
    for (const i of data.instruments) byFrequency.set(i.record.frequency, [...(byFrequency.get(i.record.frequency) ?? []), i]);
    for (const frequency of ["Daily", "Twice weekly", "Weekly", "Monthly"]) expect(byFrequency.get(frequency)?.length ?? 0).toBeGreaterThan(10);
    const daily = byFrequency.get("Daily") ?? [];
    const allFour = daily.filter((i) => i.record.priceCalculationTypeIds.join() === "WeeklyAverage,MonthlyAverage,QuarterlyAverage,YearlyAverage");
    expect(allFour.length / daily.length).toBeGreaterThan(0.75);
    for (const i of data.instruments) {
      for (const id of i.record.priceCalculationTypeIds) expect(["WeeklyAverage", "MonthlyAverage", "QuarterlyAverage", "YearlyAverage"]).toContain(id);
    }
  });
});

describe("generateDataSet: assessments", () => {
  it("assesses each instrument on its frequency's days only", () => {
    for (const instrument of data.instruments) {
      const list = days(instrument);
      const { frequency, symbol } = instrument.record;
      for (const day of list) {
        if (!isWeekday(day)) throw new Error(`${symbol} assessed on a weekend day ${isoOf(day)}`);
        if (frequency === "Twice weekly" && utcDay(day) !== 2 && utcDay(day) !== 4) throw new Error(`${symbol} twice weekly on ${isoOf(day)}`);
        if (frequency === "Monthly") {
          let next = day + 1;
          while (!isWeekday(next)) next++;
          if (dateOf(next).getUTCMonth() === dateOf(day).getUTCMonth()) throw new Error(`${symbol} monthly on ${isoOf(day)}, not the month's last weekday`);
        }
      }
      if (frequency === "Weekly") expect(new Set(list.map(utcDay)).size).toBe(1);
      if (frequency === "Daily") {
        // Every weekday from the first to the last assessment, except 25 Dec and 1 Jan.
        let expected = 0;
        for (let d = list[0] ?? 0; d <= (list[list.length - 1] ?? -1); d++) {
          const md = isoOf(d).slice(5);
          if (isWeekday(d) && md !== "12-25" && md !== "01-01") expected++;
        }
        expect(list.length).toBe(expected);
      }
    }
  });

  it("never assesses on 25 December or 1 January", () => {
    const bad: string[] = [];
    for (const instrument of data.instruments) {
      for (const day of days(instrument)) if (["12-25", "01-01"].includes(isoOf(day).slice(5))) bad.push(`${instrument.record.symbol} ${isoOf(day)}`);
    }
    expect(bad).toEqual([]);
  });

  it("starts at the launch date and keeps days strictly ascending up to today", () => {
    for (const instrument of data.instruments) {
      const list = days(instrument);
      expect(isoOf(list[0] ?? 0)).toBe(instrument.record.launchDate);
      const unordered = list.filter((day, k) => k > 0 && day <= (list[k - 1] ?? 0));
      expect(unordered).toEqual([]);
      expect(isoOf(list[list.length - 1] ?? 0) <= TODAY).toBe(true);
    }
  });

  it("keeps low <= mid <= high everywhere, with some premiums below zero", () => {
    let negative = 0;
    for (const { series } of data.instruments) {
      for (let k = 0; k < series.length; k++) {
        const low = series.low[k] ?? NaN;
        const mid = series.mid[k] ?? NaN;
        const high = series.high[k] ?? NaN;
        if (!(low <= mid && mid <= high)) throw new Error(`low ${low} mid ${mid} high ${high}`);
        if (mid < 0) negative++;
      }
    }
    expect(negative).toBeGreaterThan(0);
    const premiums = data.instruments.filter((i) => i.record.priceType === "Premium/Discount");
    expect(premiums.length).toBeGreaterThan(5);
    expect(premiums.length).toBeLessThan(data.instruments.length / 4);
  });

  it("runs active instruments up to today and ends discontinued ones earlier", () => {
    const discontinued = data.instruments.filter((i) => i.record.status === "Discontinued");
    expect(discontinued.length).toBeGreaterThan(3);
    for (const i of discontinued) expect(isoOf(i.series.days[i.series.length - 1] ?? 0) < TODAY).toBe(true);
    const recent: Record<string, number> = { Daily: 4, "Twice weekly": 7, Weekly: 9, Monthly: 35 };
    for (const i of data.instruments.filter((x) => x.record.status === "Active")) {
      const last = i.series.days[i.series.length - 1] ?? 0;
      expect(dayNumber(TODAY) - last).toBeLessThanOrEqual(recent[i.record.frequency] ?? 0);
    }
  });

  it("publishes first values on the day and corrections later, with revision 1 or 2", () => {
    let corrections = 0;
    const revisions = new Set<number>();
    const bad: string[] = [];
    for (const { series } of data.instruments) {
      for (let k = 0; k < series.length; k++) {
        const stamp = series.assessmentDate(k);
        const date = isoOf(series.days[k] ?? 0);
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(stamp)) bad.push(`malformed ${stamp}`);
        const revision = series.revision[k] ?? 0;
        if (revision === 0) {
          if (stamp.slice(0, 10) !== date) bad.push(`first value ${stamp} for ${date}`);
        } else {
          corrections++;
          revisions.add(revision);
          if (!(stamp.slice(0, 10) > date && stamp.slice(0, 10) <= TODAY)) bad.push(`correction ${stamp} for ${date}`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(corrections).toBeGreaterThan(10);
    expect(corrections).toBeLessThan(5000);
    expect([...revisions].sort()).toEqual([1, 2]);
  });

  it("derives appraisalPrice and a pricingRationale for every assessment", () => {
    let appraisals = 0;
    let total = 0;
    let short = 0;
    for (const { series } of data.instruments.slice(0, 60)) {
      for (let k = 0; k < series.length; k++) {
        total++;
        if (series.appraisalPrice(k)) appraisals++;
        if (series.pricingRationale(k).length < 20) short++;
      }
    }
    expect(short).toBe(0);
    expect(appraisals).toBeGreaterThan(0);
    expect(appraisals / total).toBeLessThan(0.1);
  });
});

describe("generateDataSet: forward curves and forecasts", () => {
  it("puts forward curves M1..Mn (n from 3 to 12) on some agricultural and metal instruments, MB-AL-0004 always", () => {
    const withCurves = data.instruments.filter((i) => i.record.hasForwardCurves);
    expect(withCurves.length).toBeGreaterThan(5);
    expect(withCurves.filter((i) => i.record.symbol.startsWith("MB-")).length).toBeGreaterThan(5);
    expect(withCurves.map((i) => i.record.symbol)).toContain("MB-AL-0004");
    for (const instrument of data.instruments) {
      const { series, record } = instrument;
      if (!record.hasForwardCurves) {
        expect(series.forwardCurves(0)).toBeUndefined();
        expect(series.forwardCurves(series.length - 1)).toBeUndefined();
        continue;
      }
      expect(record.symbol.startsWith("AG-") || (record.symbol.startsWith("MB-") && record.frequency !== "Monthly")).toBe(true);
      const n = series.forwardCurves(0)?.length ?? 0;
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(12);
      for (const k of [0, Math.floor(series.length / 2), series.length - 1]) {
        const curve = series.forwardCurves(k) ?? [];
        const month = dateOf(series.days[k] ?? 0).getUTCMonth();
        expect(curve.map((p) => p.forwardCode)).toEqual(Array.from({ length: n }, (_, j) => `M${j + 1}`));
        expect(curve.map((p) => p.forwardMonth)).toEqual(Array.from({ length: n }, (_, j) => MONTHS[(month + j + 1) % 12]));
        for (const p of curve) expect(p.low <= p.mid && p.mid <= p.high).toBe(true);
        // the answers' JSON, written without building the points, says what the points say
        const out = new JsonWriter(4096);
        expect(series.writeForwardCurves?.(k, out)).toBe(true);
        expect(JSON.parse(out.text())).toEqual(curve);
      }
    }
  });

  it("gives F24M forecasts of 24 monthly points to some other instruments", () => {
    const withForecast = data.instruments.filter((i) => i.record.forecastTypeIds.length > 0);
    expect(withForecast.length).toBeGreaterThan(5);
    for (const instrument of data.instruments) {
      const { record, forecasts } = instrument;
      if (record.forecastTypeIds.length === 0) {
        expect(forecasts).toEqual([]);
        continue;
      }
      expect(record.forecastTypeIds).toEqual(["F24M"]);
      // Agricultural instruments have one or the other; a metal may have both (MB-AL-0004 does).
      if (record.symbol.startsWith("AG-")) expect(record.hasForwardCurves).toBe(false);
      expect(forecasts).toHaveLength(1);
      const forecast = forecasts[0];
      if (forecast === undefined) throw new Error("no forecast");
      expect(forecast.type).toBe("F24M");
      expect(forecast.version).toBeGreaterThanOrEqual(1);
      expect(forecast.publicationDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const published = forecast.publicationDate.slice(0, 10);
      expect(published <= TODAY).toBe(true);
      expect(dayNumber(TODAY) - dayNumber(published)).toBeLessThan(40);
      expect(forecast.prices).toHaveLength(24);
      const start = new Date(forecast.publicationDate);
      forecast.prices.forEach((price, j) => {
        const expected = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + j + 1, 1)).toISOString();
        expect(price.date).toBe(expected);
        expect(price.low <= price.mid && price.mid <= price.high).toBe(true);
      });
    }
  });
});

describe("generateDataSet: references", () => {
  it("lists all six types, and every id an instrument uses", () => {
    expect(data.references.map((g) => g.type)).toEqual([...REFERENCE_TYPES]);
    const ids = (type: string): Set<string> => new Set(data.references.find((g) => g.type === type)?.items.map((item) => item.id));
    for (const { record } of data.instruments) {
      expect(ids("Currency")).toContain(record.currencyId);
      expect(ids("UnitOfMeasure")).toContain(record.unitOfMeasureId);
      expect(ids("Incoterm")).toContain(record.incotermId);
      expect(ids("Commodity")).toContain(record.commodityId);
      expect(ids("Source")).toContain(record.sourceId);
      for (const id of record.priceCalculationTypeIds) expect(ids("PriceCalculationType")).toContain(id);
    }
    expect([...ids("PriceCalculationType")]).toEqual(["None", "WeeklyAverage", "MonthlyAverage", "QuarterlyAverage", "YearlyAverage"]);
  });

  it("names match the references' descriptions", () => {
    const description = (type: string, id: string): string | undefined =>
      data.references.find((g) => g.type === type)?.items.find((item) => item.id === id)?.description;
    for (const { record } of data.instruments) {
      expect(record.currency).toBe(description("Currency", record.currencyId));
      expect(record.unitOfMeasure).toBe(description("UnitOfMeasure", record.unitOfMeasureId));
      expect(record.incoterm).toBe(description("Incoterm", record.incotermId));
      expect(record.commodity).toBe(description("Commodity", record.commodityId));
      expect(record.source).toBe(description("Source", record.sourceId));
    }
  });

  it("offers conversions: currencies into every other one, units within their dimension, others none", () => {
    const group = (type: string) => data.references.find((g) => g.type === type)?.items ?? [];
    const currencies = group("Currency");
    for (const item of currencies) {
      expect(item.description.length).toBeGreaterThan(0);
      expect(item.sign.length).toBeGreaterThan(0);
      expect([...item.availableConversionIds].sort()).toEqual(currencies.map((c) => c.id).filter((id) => id !== item.id).sort());
    }
    const units = new Map(group("UnitOfMeasure").map((u) => [u.id, u.availableConversionIds]));
    expect(units.get("MT")).toEqual(expect.arrayContaining(["KG", "LB", "ST"]));
    expect(units.get("MT")).not.toContain("M3");
    expect(units.get("M3")).toContain("MBF");
    expect(units.get("M3")).not.toContain("KG");
    for (const [id, conversions] of units) {
      expect(conversions).not.toContain(id);
      for (const other of conversions) expect(units.get(other)).toContain(id);
    }
    for (const type of ["PriceCalculationType", "Incoterm", "Commodity", "Source"]) {
      for (const item of group(type)) expect(item.availableConversionIds).toEqual([]);
    }
  });
});

describe("generateDataSet: determinism", () => {
  /** One digest per instrument over its record, forecasts, every number and a sample of derived fields. */
  function fingerprint(set: DataSet): string[] {
    return set.instruments.map((i) => {
      const hash = createHash("sha256");
      hash.update(JSON.stringify([i.record, i.forecasts]));
      for (const column of [i.series.days, i.series.low, i.series.mid, i.series.high, i.series.revision]) {
        hash.update(Buffer.from(column.buffer, column.byteOffset, column.byteLength));
      }
      for (let k = 0; k < i.series.length; k += 13) hash.update(JSON.stringify(pointAt(i.series, k)));
      return `${i.record.symbol} ${hash.digest("hex")}`;
    });
  }

  it("gives identical data for the same seed and today", () => {
    const again = generateDataSet({ seed: DEFAULT_SEED, today: TODAY });
    expect(fingerprint(again)).toEqual(fingerprint(data));
    expect(again.references).toEqual(data.references);
  });

  it("gives different data for another seed", () => {
    const other = generateDataSet({ seed: DEFAULT_SEED + 1, today: TODAY });
    expect(other.instruments.length).toBeGreaterThanOrEqual(300);
    expect(other.instruments.map((i) => i.record.symbol)).not.toEqual(data.instruments.map((i) => i.record.symbol));
  });

  it("keeps past values independent of today", () => {
    const later = generateDataSet({ seed: DEFAULT_SEED, today: "2026-03-13" });
    const earlier = generateDataSet({ seed: DEFAULT_SEED, today: "2015-06-30" });
    expect(later.instruments.map((i) => i.record.symbol)).toEqual(data.instruments.map((i) => i.record.symbol));
    expect(earlier.instruments.length).toBeLessThan(data.instruments.length);
    const bySymbol = new Map(data.instruments.map((i) => [i.record.symbol, i]));
    const compare = (other: DataSet, cutoff: string): number => {
      let compared = 0;
      for (const instrument of other.instruments) {
        const reference = bySymbol.get(instrument.record.symbol);
        if (reference === undefined) throw new Error(`${instrument.record.symbol} missing at ${TODAY}`);
        const { series } = instrument;
        const differing: number[] = [];
        for (let k = 0; k < series.length && isoOf(series.days[k] ?? 0) <= cutoff; k++) {
          // Corrections are published a few days late, so the cutoff keeps clear of the later today's last days.
          if (k % 97 === 0 || k < 3) expect(pointAt(series, k)).toEqual(pointAt(reference.series, k));
          const same =
            series.days[k] === reference.series.days[k] &&
            series.low[k] === reference.series.low[k] &&
            series.mid[k] === reference.series.mid[k] &&
            series.high[k] === reference.series.high[k] &&
            series.revision[k] === reference.series.revision[k];
          if (!same) differing.push(k);
          compared++;
        }
        expect(differing).toEqual([]);
        expect(instrument.record.launchDate).toBe(reference.record.launchDate);
      }
      return compared;
    };
    expect(compare(later, "2025-06-23")).toBeGreaterThan(100_000);
    expect(compare(earlier, "2015-06-23")).toBeGreaterThan(10_000);
  });

  it("defaults today to the real UTC date and rejects a malformed one", () => {
    expect(generateDataSet({}).today).toBe(todayIso());
    expect(() => generateDataSet({ today: "2025-02-30" })).toThrow(/today/);
    expect(() => generateDataSet({ seed: 1.5 })).toThrow(/seed/);
  });
});

describe("generateDataSet: plausible levels and paths", () => {
  /** The catalogue's product and the instrument's currency rate: its usual level is product.level x rate. */
  function usual(instrument: InstrumentData): { product: ProductDef; rate: number } {
    const commodity = COMMODITIES.find((c) => c.id === instrument.record.commodityId);
    const product = commodity?.products.find((p) => `${commodity.code}-${p.key}` === instrument.record.productId);
    const rate = CURRENCIES.find((c) => c.id === instrument.record.currencyId)?.perUsd;
    if (product === undefined || rate === undefined) throw new Error(`no catalogue entry for ${instrument.record.symbol}`);
    return { product, rate };
  }

  it("keeps every price within its commodity's usual range for its unit and currency (x0.55 to x1.8 of the level)", () => {
    const outside: string[] = [];
    for (const instrument of data.instruments) {
      const { product, rate } = usual(instrument);
      if (product.priceType !== "Price") continue;
      const level = product.level * rate;
      const mids = Array.from(instrument.series.mid);
      const [low, high] = [Math.min(...mids) / level, Math.max(...mids) / level];
      if (low < 0.55 || high > 1.8) outside.push(`${instrument.record.symbol} ${low.toFixed(2)}..${high.toFixed(2)}`);
    }
    expect(outside).toEqual([]);
  });

  it("moves a premium by at most two of its swings within any 90 days", () => {
    const jumpy: string[] = [];
    for (const instrument of data.instruments) {
      const { product, rate } = usual(instrument);
      if (product.priceType !== "Premium/Discount") continue;
      const swing = (product.swing ?? 0) * rate;
      const { days, mid } = instrument.series;
      let worst = 0;
      for (let end = 0, start = 0; end < days.length; end++) {
        while ((days[end] as number) - (days[start] as number) > 90) start++;
        for (let k = start; k < end; k++) worst = Math.max(worst, Math.abs((mid[end] as number) - (mid[k] as number)) / swing);
      }
      if (worst > 2) jumpy.push(`${instrument.record.symbol} ${worst.toFixed(2)} swings`);
    }
    expect(jumpy).toEqual([]);
  });
});
