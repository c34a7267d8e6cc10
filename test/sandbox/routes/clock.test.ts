/** The publication clock (convention 20): no answer holds an assessment published after the sandbox's "now". */
import type { FastifyInstance } from "fastify";
import { toEpochDay, type HistoryResponse, type PricesResponse } from "../../../src/api";
import { endOfDay, parseInstant, publicationClock } from "../../../src/sandbox/data/clock";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import { parseCommandLine, UsageError } from "../../../src/sandbox/cli";
import { stubTokenService } from "../service/fixtures";
import { fixtureApp, get, must } from "./setup";
import { buildApp } from "../../../src/sandbox/app";

// The fixture's MB-AL-0001 is assessed every weekday to 2024-06-28 (a Friday), published at 16:30 UTC.
const LAST_DAY = "2024-06-28";

async function appAt(instant: string): Promise<FastifyInstance> {
  const at = must(parseInstant(instant), instant);
  return fixtureApp({ now: () => at });
}

describe("publication clock", () => {
  it("shows yesterday's value as latest before today's assessment is published", async () => {
    const app = await appAt(`${LAST_DAY}T09:25:00Z`);
    const answer = await get(app, "/Prices?Symbols=MB-AL-0001");
    await app.close();
    const block = must((answer.body as PricesResponse).instruments[0]);
    expect(block.prices.map((p) => p.date)).toEqual(["2024-06-27"]);
    expect(block.lastDate).toBe("2024-06-27T16:30:00+00:00");
  });

  it("says its clock in the Date header of every API answer, a refusal included", async () => {
    const app = await appAt(`${LAST_DAY}T09:25:00Z`);
    const answered = await get(app, "/Prices?Symbols=MB-AL-0001");
    const refused = await get(app, "/References?Types=Currency", "no-such-token");
    await app.close();
    expect(refused.status).toBe(401);
    for (const answer of [answered, refused]) expect(answer.headers.date).toBe("Fri, 28 Jun 2024 09:25:00 GMT");
  });

  it("shows today's assessment from the instant it is published", async () => {
    const app = await appAt(`${LAST_DAY}T16:30:00Z`);
    const answer = await get(app, "/Prices?Symbols=MB-AL-0001");
    await app.close();
    expect(must((answer.body as PricesResponse).instruments[0]).prices.map((p) => p.date)).toEqual([LAST_DAY]);
  });

  it("answers today's date with yesterday's value, and history without today, before publication", async () => {
    const app = await appAt(`${LAST_DAY}T12:00:00+00:00`);
    const dated = await get(app, `/Prices?Symbols=MB-AL-0001&Dates=${LAST_DAY}`);
    const history = await get(app, `/Prices/History?Symbols=MB-AL-0001&FromDate=2024-06-24&ToDate=${LAST_DAY}`);
    const monthly = await get(app, `/Prices/MonthlyAverage?Symbols=MB-AL-0001&Dates=${LAST_DAY}`);
    await app.close();
    const record = must(must((dated.body as PricesResponse).instruments[0]).prices[0]);
    expect(record.date).toBe(LAST_DAY);
    expect(record.assessmentDate).toBe("2024-06-27T16:30:00+00:00");
    const body = history.body as HistoryResponse;
    expect(must(body.instruments[0]).prices.map((p) => p.date)).toEqual(["2024-06-27", "2024-06-26", "2024-06-25", "2024-06-24"]);
    expect(body.calendar.dates[0]).toBe("2024-06-27");
    expect(must(must((monthly.body as PricesResponse).instruments[0]).prices[0]).assessmentDate).toBe("2024-06-27T16:30:00+00:00");
  });

  it("holds back a forecast until its publication", async () => {
    const query = "/Prices/History?Symbols=FP-PLP-0002&FromDate=2024-02-01&ToDate=2024-12-31&forecastType=F24M";
    const before = await appAt("2024-02-29T23:00:00Z");
    const hidden = (await get(before, query)).body as HistoryResponse;
    await before.close();
    expect(hidden.instruments).toEqual([]);
    expect(hidden.invalidInstruments?.[0]?.message).toMatch(/Forecast type F24M is not available/);
    const after = await appAt("2024-03-01T00:00:00Z");
    const shown = (await get(after, query)).body as HistoryResponse;
    await after.close();
    expect(shown.instruments[0]?.forecast?.publicationDate).toBe("2024-03-01T00:00:00.000Z");
  });

  it("never serves a generated assessment stamped after now, at any hour of the day", async () => {
    const now = Date.parse("2025-06-30T09:25:00Z");
    const data = generateDataSet({ today: "2025-06-30", now });
    const app = await buildApp({ data, tokenService: stubTokenService, now: () => now, limits: { maxSymbols: 1000 } });
    const symbols = data.instruments.map((i) => i.record.symbol).join(",");
    const answer = await app.inject({ method: "POST", url: "/physical/v2/Prices/History", headers: { authorization: "Bearer full", "content-type": "application/x-www-form-urlencoded" }, payload: `Symbols=${symbols}&FromDate=2025-06-20&ToDate=2025-06-30` });
    await app.close();
    expect(answer.statusCode).toBe(200);
    const stamps = (JSON.parse(answer.body) as HistoryResponse).instruments.flatMap((block) => block.prices.map((p) => Date.parse(p.assessmentDate)));
    expect(stamps.length).toBeGreaterThan(100);
    expect(Math.max(...stamps)).toBeLessThanOrEqual(now);
    // Some desks (east of UTC) have published by 09:25 UTC, so the day is not simply cut off.
    expect(stamps.some((stamp) => stamp >= Date.parse("2025-06-30T00:00:00Z"))).toBe(true);
  });
});

describe("publication clock and conversion", () => {
  it("converts only what is published by now, and a clock set back is not served a view made for later", async () => {
    let now = Date.parse("2025-06-30T23:59:59Z");
    const morningAt = Date.parse("2025-06-30T06:00:00Z");
    const data = generateDataSet({ today: "2025-06-30", now });
    const app = await buildApp({ data, tokenService: stubTokenService, now: () => now });
    // A dollar instrument assessed on the day, published after the morning.
    const instrument = must(
      data.instruments.find(({ record, series }) => record.currencyId === "USD" && series.length > 1 && series.days[series.length - 1] === toEpochDay("2025-06-30") && series.publishedAt(series.length - 1) > morningAt),
      "a USD instrument assessed on 2025-06-30 after 06:00 UTC",
    );
    const { series } = instrument;
    const latest = async (): Promise<string[]> => {
      const answer = await get(app, `/Prices?Symbols=${instrument.record.symbol}&targetCurrency=EUR`);
      const block = must((answer.body as PricesResponse).instruments[0]);
      expect(block.currencyId).toBe("EUR");
      return block.prices.map((p) => p.assessmentDate);
    };
    const evening = await latest();
    now = morningAt;
    const morning = await latest();
    await app.close();
    expect(evening).toEqual([series.assessmentDate(series.length - 1)]);
    expect(morning).toEqual([series.assessmentDate(series.length - 2)]);
  });
});

describe("publicationClock", () => {
  it("freezes --today at the end of the day and --now at the instant", () => {
    expect(publicationClock({ today: "2025-06-30" }).now()).toBe(endOfDay("2025-06-30"));
    expect(new Date(endOfDay("2025-06-30")).toISOString()).toBe("2025-06-30T23:59:59.999Z");
    const clock = publicationClock({ now: "2025-06-30T11:25:00+02:00" });
    expect(clock.now()).toBe(Date.parse("2025-06-30T09:25:00Z"));
    expect(clock.today).toBe("2025-06-30");
    expect(clock.frozen).toBe(true);
  });

  it("follows the real time when not frozen", () => {
    let t = Date.parse("2026-01-05T08:00:00Z");
    const clock = publicationClock({}, () => t);
    expect(clock.today).toBe("2026-01-05");
    t += 3_600_000;
    expect(clock.now()).toBe(Date.parse("2026-01-05T09:00:00Z"));
  });

  it("takes --now on the command line and refuses a date without a time", () => {
    expect(parseCommandLine(["--now", "2025-06-30T09:25:00Z"]).options.now).toBe("2025-06-30T09:25:00Z");
    expect(() => parseCommandLine(["--now", "2025-06-30"])).toThrow(UsageError);
    expect(() => parseCommandLine(["--now", "2025-06-30T09:25:00Z", "--today", "2025-06-30"])).toThrow(/not both/);
  });
});
