/** Request rules (conventions 1 to 5, 7, 8, 11), CORS, faults and the rate limit, through `inject`. */
import type { FastifyInstance } from "fastify";
import fc from "fast-check";
import type { InstrumentsResponse, PricesResponse, ReferencesResponse } from "../../../src/api";
import { fixtureApp, get, must } from "./setup";

let app: FastifyInstance;
beforeAll(async () => {
  app = await fixtureApp();
});
afterAll(async () => {
  await app.close();
});

const auth = { authorization: "Bearer full" };
const FORM = "application/x-www-form-urlencoded";

function multipart(fields: [string, string][], boundary = "XyZ"): string {
  return `${fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("")}--${boundary}--\r\n`;
}

describe("how parameters arrive", () => {
  const expected = ["MB-AL-0001", "AG-WHE-0001"];
  const symbolsOf = (body: string) => (JSON.parse(body) as PricesResponse).instruments.map((b) => b.symbol);

  it("reads a GET query, a POST form, a POST multipart form and a GET that carries a form body alike", async () => {
    const answers = await Promise.all([
      app.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=MB-AL-0001,AG-WHE-0001", headers: auth }),
      app.inject({ method: "POST", url: "/physical/v2/Prices", payload: "Symbols=MB-AL-0001&Symbols=AG-WHE-0001", headers: { ...auth, "content-type": FORM } }),
      app.inject({
        method: "POST",
        url: "/physical/v2/Prices",
        payload: multipart([["symbols", "MB-AL-0001"], ["SYMBOLS", "AG-WHE-0001"]]),
        headers: { ...auth, "content-type": "multipart/form-data; boundary=XyZ" },
      }),
      app.inject({ method: "GET", url: "/physical/v2/Prices", payload: "symbols=MB-AL-0001, ,AG-WHE-0001,", headers: { ...auth, "content-type": FORM } }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(symbolsOf(answer.body)).toEqual(expected);
    }
  });

  it("merges query and body", async () => {
    const answer = await app.inject({ method: "POST", url: "/physical/v2/Prices?Symbols=MB-AL-0001", payload: "Symbols=AG-WHE-0001", headers: { ...auth, "content-type": FORM } });
    expect(symbolsOf(answer.body)).toEqual(expected);
  });

  it("matches paths and parameter names without regard to case, and ignores language, cache-control and unknown names", async () => {
    const answer = await app.inject({
      method: "GET",
      url: "/PHYSICAL/V2/pRiCeS/hIsToRy?sYmBoLs=MB-AL-0001&fromdate=2024-3-1&TODATE=2024-3-4&language=en&cache-control=no-cache&colour=blue",
      headers: { ...auth, "cache-control": "no-cache" },
    });
    expect(answer.statusCode).toBe(200);
    expect(symbolsOf(answer.body)).toEqual(["MB-AL-0001"]);
  });

  it("ignores uploaded files in a multipart form", async () => {
    const boundary = "b0";
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="Types"\r\n\r\nCurrency\r\n--${boundary}--\r\n`;
    const answer = await app.inject({ method: "POST", url: "/physical/v2/References", payload, headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` } });
    expect(answer.statusCode).toBe(200);
    expect((JSON.parse(answer.body) as ReferencesResponse).references.map((r) => r.type)).toEqual(["Currency"]);
  });
});

describe("instruments and references", () => {
  it("adds the instrument fields named in Fields, in any case", async () => {
    const answer = await get(app, "/Instruments?Symbols=AG-WHE-0001&Fields=commodity,LOCATION,currency,unitofmeasure,Incoterm,source,forecasttypeids,HASFORWARDCURVES");
    const [record] = (answer.body as InstrumentsResponse).instruments;
    expect(record).toMatchObject({
      commodity: "Wheat",
      location: "Rotterdam",
      currency: "US Dollar",
      unitOfMeasure: "Tonne",
      incoterm: "Free On Board",
      source: "Sandbox desk",
      forecastTypeIds: [],
      hasForwardCurves: true,
    });
  });

  it("leaves optional instrument fields out unless asked", async () => {
    const [record] = ((await get(app, "/Instruments?Symbols=AG-WHE-0001")).body as InstrumentsResponse).instruments;
    expect(Object.keys(must(record))).toHaveLength(15);
  });

  it("returns reference groups in the order asked", async () => {
    const answer = await get(app, "/References?Types=source,Currency&Types=source");
    expect((answer.body as ReferencesResponse).references.map((r) => r.type)).toEqual(["Source", "Currency"]);
  });
});

describe("errors", () => {
  it.each([
    ["Symbols is missing", "/Prices", "Symbols"],
    ["Symbols is empty", "/Prices?Symbols=,%20,", "Symbols"],
    ["a date is malformed", "/Prices?Symbols=MB-AL-0001&Dates=2024-02-30", "Dates"],
    ["a date is not a date at all", "/Prices?Symbols=MB-AL-0001&Dates=yesterday", "Dates"],
    ["a price field is unknown", "/Prices?Symbols=MB-AL-0001&Fields=volume", "Fields"],
    ["an instrument field is unknown", "/Instruments?Fields=Colour", "Fields"],
    ["Types is missing", "/References", "Types"],
    ["a reference type is unknown", "/References?Types=Currency,Planets", "Types"],
    ["a calculation type is unknown", "/Prices?Symbols=MB-AL-0001&priceCalculationType=Hourly", "priceCalculationType"],
  ])("answers 400 naming the parameter when %s", async (_what, path, parameter) => {
    const answer = await get(app, path);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: expect.any(String), title: "Bad Request", status: 400, detail: expect.any(String), errors: [expect.objectContaining({ parameter })] });
  });

  it("answers 400 naming each limit when over it", async () => {
    const small = await fixtureApp({ limits: { maxSymbols: 2, maxDates: 2, maxRecords: 3 } });
    const symbols = await get(small, "/Prices?Symbols=A,B,C");
    expect(symbols.status).toBe(400);
    expect(symbols.body).toMatchObject({ detail: expect.stringContaining("maxSymbols"), errors: [{ parameter: "Symbols" }] });
    const dates = await get(small, "/Prices?Symbols=A&Dates=2024-01-01,2024-01-02,2024-01-03");
    expect(dates.body).toMatchObject({ detail: expect.stringContaining("maxDates"), errors: [{ parameter: "Dates" }] });
    const records = await get(small, "/Prices?Symbols=A,B&Dates=2024-01-01,2024-01-02");
    expect(records.body).toMatchObject({ detail: expect.stringContaining("maxRecords") });
    expect((await get(small, "/Prices?Symbols=A,B&Dates=2024-01-01")).status).toBe(200);
    await small.close();
  });

  it("answers 415 for a body of another media type", async () => {
    const answer = await app.inject({ method: "POST", url: "/physical/v2/Prices", payload: '{"Symbols":"MB-AL-0001"}', headers: { ...auth, "content-type": "application/json" } });
    expect(answer.statusCode).toBe(415);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 415, errors: [{ parameter: "Content-Type" }] });
  });

  it("answers 400 for a malformed multipart body", async () => {
    const answer = await app.inject({ method: "POST", url: "/physical/v2/Prices", payload: "--nope\r\ngarbage", headers: { ...auth, "content-type": "multipart/form-data; boundary=XyZ" } });
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, errors: [{ parameter: "body" }] });
  });

  it("answers 404 for an unknown path and 405 for a wrong method, as problems", async () => {
    const missing = await app.inject({ method: "GET", url: "/physical/v2/Quotes", headers: auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const wrong = await app.inject({ method: "DELETE", url: "/physical/v2/prices", headers: auth });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toContain("POST");
    expect(JSON.parse(wrong.body)).toMatchObject({ status: 405 });
  });
});

describe("CORS", () => {
  it("allows the add-in's origin with Authorization and exposes Retry-After", async () => {
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/physical/v2/Prices",
      headers: { origin: "https://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://localhost:3000");
    expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
    const actual = await app.inject({ method: "GET", url: "/physical/v2/References?Types=Currency", headers: { ...auth, origin: "https://localhost:3000" } });
    expect(actual.headers["access-control-allow-origin"]).toBe("https://localhost:3000");
    expect(String(actual.headers["access-control-expose-headers"])).toContain("Retry-After");
  });

  it("does not allow another origin unless configured", async () => {
    const other = await app.inject({ method: "GET", url: "/physical/v2/References?Types=Currency", headers: { ...auth, origin: "https://evil.example" } });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    const configured = await fixtureApp({ corsOrigins: ["https://localhost:8443"] });
    const allowed = await configured.inject({ method: "GET", url: "/physical/v2/References?Types=Currency", headers: { ...auth, origin: "https://localhost:8443" } });
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://localhost:8443");
    await configured.close();
  });
});

describe("faults and the rate limit", () => {
  it("injects each kind at its rate, seeded and repeatable, on API routes only", async () => {
    const run = async (): Promise<string[]> => {
      const faulty = await fixtureApp({ faults: "500:0.2,503:0.2,429=3:0.2,truncate:0.2", seed: 42 });
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i++) {
        const answer = await faulty.inject({ method: "GET", url: "/physical/v2/References?Types=Currency", headers: auth });
        let parsed = true;
        try {
          JSON.parse(answer.body);
        } catch {
          parsed = false;
        }
        if (answer.statusCode === 429) expect(answer.headers["retry-after"]).toBe("3");
        outcomes.push(answer.statusCode === 200 && !parsed ? "truncated" : String(answer.statusCode));
      }
      const unknown = await faulty.inject({ method: "GET", url: "/elsewhere" });
      expect(unknown.statusCode).toBe(404);
      await faulty.close();
      return outcomes;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    for (const kind of ["500", "503", "429", "truncated", "200"]) expect(first).toContain(kind);
  });

  it("drops the connection for a drop fault", async () => {
    const faulty = await fixtureApp({ faults: "drop:1" });
    await expect(faulty.inject({ method: "GET", url: "/physical/v2/References?Types=Currency", headers: auth })).rejects.toThrow();
    await faulty.close();
  });

  it("answers 429 with Retry-After past the per-caller limit, counting each caller apart", async () => {
    const limited = await fixtureApp({ rateLimit: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(limited, "/References?Types=Currency")).status);
    const other = await get(limited, "/References?Types=Currency", "trial");
    await limited.close();
    // All six fit in one or two wall-clock seconds, so at least one of the first five is over the limit.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect([200, 429]).toContain(other.status);
  });
});

describe("never a 500 for bad input", () => {
  const name = fc.oneof(fc.constantFrom("Symbols", "symbols", "Dates", "Fields", "FromDate", "ToDate", "calendarType", "carryForward", "forecastType", "priceCalculationType", "Types"), fc.string());
  const value = fc.oneof(fc.string(), fc.constantFrom("MB-AL-0001", "2024-03-01", "2024-3-1", "true", "MonthlyAverage", "Currency", ",,", "%", "%zz"));
  const path = fc.constantFrom("/Prices", "/Prices/History", "/Prices/MonthlyAverage", "/Prices/WeeklyAverage", "/Instruments", "/References", "/prices/history/");

  it("answers 200 or a 4xx problem for any query or form", async () => {
    await fc.assert(
      fc.asyncProperty(path, fc.array(fc.tuple(name, value), { maxLength: 6 }), fc.boolean(), async (p, pairs, asForm) => {
        const encoded = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&");
        const answer = asForm
          ? await app.inject({ method: "POST", url: `/physical/v2${p}`, payload: encoded, headers: { ...auth, "content-type": FORM } })
          : await app.inject({ method: "GET", url: `/physical/v2${p}?${encoded}`, headers: auth });
        expect(answer.statusCode).toBeLessThan(500);
        if (answer.statusCode !== 200) {
          expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(answer.body)).toMatchObject({ status: answer.statusCode });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("answers 200 or a 4xx problem for raw, unencoded bodies and query strings", async () => {
    await fc.assert(
      fc.asyncProperty(path, fc.string(), fc.string(), fc.constantFrom(FORM, "multipart/form-data; boundary=b", "text/plain", "application/json"), async (p, query, body, type) => {
        const answer = await app.inject({ method: "POST", url: `/physical/v2${p}?${query.replace(/[#\s]/g, "")}`, payload: body, headers: { ...auth, "content-type": type } });
        expect(answer.statusCode).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });
});
