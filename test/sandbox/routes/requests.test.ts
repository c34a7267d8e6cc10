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

function symbolsOfBody(body: string): string[] {
  return (JSON.parse(body) as PricesResponse).instruments.map((b) => b.symbol);
}

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

  it("answers an OPTIONS that is no preflight with a 400 problem naming what a preflight lacks", async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{}, ["Origin", "Access-Control-Request-Method"]],
      [{ origin: "https://localhost:3000" }, ["Access-Control-Request-Method"]],
      [{ "access-control-request-method": "GET" }, ["Origin"]],
    ];
    for (const [headers, missing] of cases) {
      for (const url of ["/physical/v2/Prices", "/physical/v2/prices/history", "/physical/v2/Nowhere"]) {
        const answer = await app.inject({ method: "OPTIONS", url, headers: { ...auth, ...headers } });
        expect(answer.statusCode).toBe(400);
        expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
        const problem = JSON.parse(answer.body) as { status: number; title: string; errors: { parameter: string }[] };
        expect(problem).toMatchObject({ status: 400, title: "Bad Request", type: expect.any(String), detail: expect.stringContaining("preflight") });
        expect(problem.errors.map((e) => e.parameter)).toEqual(missing);
      }
    }
  });

  it("still answers a real preflight with 204 and no body, for GET and POST, from an allowed origin", async () => {
    for (const method of ["GET", "POST"]) {
      const preflight = await app.inject({
        method: "OPTIONS",
        url: "/physical/v2/Prices/History",
        headers: { origin: "https://localhost:3000", "access-control-request-method": method },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.body).toBe("");
      expect(preflight.headers["access-control-allow-origin"]).toBe("https://localhost:3000");
      expect(String(preflight.headers["access-control-allow-methods"])).toContain(method);
    }
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

/** Names every plain object inherits: a lookup in `{}` keyed by the caller's text finds them. */
const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__"];
const MULTIPART_BOUNDARY = "fc-7Qx2-boundary";

/** A multipart form as a browser writes it: `"`, CR and LF in names percent-encoded. */
function multipartForm(pairs: readonly (readonly [string, string])[]): string {
  const escape = (name: string) => name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return multipart(pairs.map(([n, v]): [string, string] => [escape(n), v]), MULTIPART_BOUNDARY);
}

type Transport = "query" | "form" | "multipart";

function send(path: string, pairs: readonly (readonly [string, string])[], transport: Transport, target: FastifyInstance = app) {
  const app = target;
  const encoded = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&");
  const url = `/physical/v2${path}`;
  switch (transport) {
    case "query":
      return app.inject({ method: "GET", url: `${url}?${encoded}`, headers: auth });
    case "form":
      return app.inject({ method: "POST", url, payload: encoded, headers: { ...auth, "content-type": FORM } });
    case "multipart":
      return app.inject({ method: "POST", url, payload: multipartForm(pairs), headers: { ...auth, "content-type": `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` } });
  }
}

describe("never a 500 for bad input", () => {
  const name = fc.oneof(
    fc.constantFrom("Symbols", "symbols", "Dates", "Fields", "FromDate", "ToDate", "calendarType", "carryForward", "forecastType", "priceCalculationType", "Types"),
    fc.constantFrom(...PROTOTYPE_NAMES),
    fc.string(),
  );
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom("MB-AL-0001", "2024-03-01", "2024-3-1", "true", "MonthlyAverage", "Currency", ",,", "%", "%zz"),
    fc.constantFrom(...PROTOTYPE_NAMES),
  );
  const path = fc.constantFrom("/Prices", "/Prices/History", "/Prices/MonthlyAverage", "/Prices/WeeklyAverage", "/Instruments", "/References", "/prices/history/");
  const transport = fc.constantFrom<Transport>("query", "form", "multipart");

  it("answers 200 or a 4xx problem for any query, urlencoded or multipart form", async () => {
    await fc.assert(
      fc.asyncProperty(path, fc.array(fc.tuple(name, value), { maxLength: 6 }), transport, async (p, pairs, how) => {
        const answer = await send(p, pairs, how);
        expect(answer.statusCode).toBeLessThan(500);
        if (answer.statusCode !== 200) {
          expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(answer.body)).toMatchObject({ status: answer.statusCode });
        }
      }),
      { numRuns: 400 },
    );
  });

  it.each(["carryForward", "calendarType", "priceCalculationType", "Types", "FromDate", "Dates"])(
    "answers 400 naming %s, not 500, when its value is a prototype name, in a query, a form and a multipart form",
    async (parameter) => {
      const base: [string, string][] = [["Symbols", "MB-AL-0001"], ["FromDate", "2024-03-01"], ["ToDate", "2024-03-08"], ["Types", "Currency"]];
      const route = parameter === "Types" ? "/References" : parameter === "Dates" ? "/Prices" : "/Prices/History";
      for (const given of PROTOTYPE_NAMES) {
        const pairs = [...base.filter(([n]) => n !== parameter), [parameter, given] as [string, string]];
        for (const how of ["query", "form", "multipart"] as const) {
          const answer = await send(route, pairs, how);
          expect({ given, how, status: answer.statusCode }).toEqual({ given, how, status: 400 });
          expect(JSON.parse(answer.body)).toMatchObject({ errors: [expect.objectContaining({ parameter })] });
        }
      }
    },
  );
});

describe("prototype names as parameter names", () => {
  it.each(PROTOTYPE_NAMES)("ignores %s as an unknown name alike in a query, a form and a multipart form, once or repeated", async (given) => {
    for (const extra of [[[given, "x"]], [[given, "1"], [given, "2"]], [[given, "1"], [given.toUpperCase(), "2"]]] as [string, string][][]) {
      const pairs: [string, string][] = [["Symbols", "MB-AL-0001"], ...extra];
      const answers = await Promise.all((["query", "form", "multipart"] as const).map((how) => send("/Prices", pairs, how)));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.body).toBe(answers[0]?.body);
      }
      expect(symbolsOfBody(answers[0]?.body ?? "")).toEqual(["MB-AL-0001"]);
    }
  });

  it("gives identical answers through a query, a form and a multipart form for any names and values", async () => {
    const name = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, "Symbols", "carryForward", "calendarType", "Fields"), fc.stringMatching(/^[A-Za-z_]{1,12}$/));
    const value = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, "MB-AL-0001", "true", "0", "Weekdays"), fc.stringMatching(/^[A-Za-z0-9_ -]{0,12}$/));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 5 }), async (pairs) => {
        const all: [string, string][] = [["Symbols", "MB-AL-0001"], ["FromDate", "2024-03-01"], ["ToDate", "2024-03-08"], ...pairs];
        const [query, form, parts] = await Promise.all((["query", "form", "multipart"] as const).map((how) => send("/Prices/History", all, how)));
        expect(form?.statusCode).toBe(query?.statusCode);
        expect(parts?.statusCode).toBe(query?.statusCode);
        expect(form?.body).toBe(query?.body);
        expect(parts?.body).toBe(query?.body);
      }),
      { numRuns: 150 },
    );
  });
});

describe("never a 500 for raw bodies", () => {
  const path = fc.constantFrom("/Prices", "/Prices/History", "/Prices/MonthlyAverage", "/Prices/WeeklyAverage", "/Instruments", "/References", "/prices/history/");

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
