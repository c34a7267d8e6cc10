import { AuthError, HTTPError, NetworkError, REDACTED, TimeoutError, isHTTPError, isNetworkError, parseRetryAfter, retryAfterTooLong, retryDelay, DEFAULT_RETRY_POLICY, type TokenProvider, type TokenRequestOptions } from "../../src/prices";
import { json, midOf, problem } from "./fake-service";
import { BASE, TOKEN, flushAll, reasonOf, setup, valueOf, within } from "./setup";

const key = { symbol: "AAA", date: "2024-03-01" };

describe("retry policy", () => {
  it("retries a 503 and answers once the service recovers", async () => {
    const { client, manual, service } = setup();
    service.script.push(problem(503));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect(valueOf(result).date).toBe("2024-03-01");
    expect(service.calls).toHaveLength(2);
    expect(client.stats()).toMatchObject({ requestsSent: 1, attempts: 2, retries: 1 });
  });

  it("gives up after 3 attempts with the last status, method and url", async () => {
    const { client, manual, service } = setup();
    service.script.push(problem(500), problem(502), problem(503), problem(503));
    const [result] = await flushAll(manual, [client.price(key)]);
    const error = reasonOf(result) as HTTPError;
    expect(error).toBeInstanceOf(HTTPError);
    expect(error.status).toBe(503);
    expect(error.method).toBe("GET");
    expect(error.url).toContain("/physical/v2/Prices?Symbols=AAA");
    expect(error.message).toBe("Request failed with status 503 Service Unavailable: GET /Prices (failure 503)");
    expect(error.problem?.detail).toBe("failure 503");
    expect(service.calls).toHaveLength(3);
  });

  it("titles a failure with the reason phrase the response carried, before the problem's title", async () => {
    const { client, manual, service } = setup();
    const body = JSON.stringify({ type: "about:blank", title: "Bad Request Parameters", status: 400, detail: "bad" });
    service.script.push(new Response(body, { status: 400, statusText: "Bad Request", headers: { "content-type": "application/problem+json" } }));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect((reasonOf(result) as HTTPError).message).toBe("Request failed with status 400 Bad Request: GET /Prices (bad)");
  });

  it("gives no title when neither a reason phrase (HTTP/2) nor a problem body came", async () => {
    const { client, manual, service } = setup();
    service.script.push(new Response("<html>gateway</html>", { status: 404, headers: { "content-type": "text/html" } }));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect((reasonOf(result) as HTTPError).message).toBe("Request failed with status 404: GET /Prices");
  });

  it.each([400, 404])("does not retry a %i", async (status) => {
    const { client, manual, service } = setup();
    service.script.push(problem(status));
    const [result] = await flushAll(manual, [client.price(key), client.price({ ...key, symbol: "BBB" })]);
    expect((reasonOf(result) as HTTPError).status).toBe(status);
    expect(service.calls).toHaveLength(1);
  });

  it("fails every key a failed request carried, with the same cause", async () => {
    const { client, manual, service } = setup();
    service.script.push(problem(400));
    const results = await flushAll(manual, [client.price(key), client.price({ ...key, symbol: "BBB" })]);
    expect(reasonOf(results[0])).toBe(reasonOf(results[1]));
    expect(client.stats()).toMatchObject({ errors: 2, failedRequests: 1 });
  });

  it("waits as long as Retry-After asks when it is within maxRetryAfterMs", async () => {
    const waits: number[] = [];
    const { client, manual, service } = setup({ retry: { maxRetryAfterMs: 2_000 }, sleep: async (ms) => void waits.push(ms) });
    service.script.push(problem(429, { "retry-after": "2" }), problem(429, { "retry-after": "0" }));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect(valueOf(result).date).toBe("2024-03-01");
    expect(waits).toEqual([2_000]);
    expect(client.lineage(key)?.request?.retryDelaysMs).toEqual([2_000, 0]);
    expect(service.calls).toHaveLength(3);
  });

  it("fails at once, saying when to retry, when Retry-After is longer than maxRetryAfterMs", async () => {
    const waits: number[] = [];
    const { client, manual, service } = setup({ sleep: async (ms) => void waits.push(ms) });
    service.script.push(problem(429, { "retry-after": "60" }));
    const [result] = await flushAll(manual, [client.price(key)]);
    const error = reasonOf(result) as HTTPError;
    expect(error).toBeInstanceOf(HTTPError);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(60_000);
    expect(error.message).toBe("Request failed with status 429 Too Many Requests: GET /Prices (failure 429); retry after 60 s");
    expect(service.calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("fails at once when a Retry-After date lies beyond maxRetryAfterMs", async () => {
    const { client, manual, service, clock } = setup({ retry: { maxRetryAfterMs: 5_000 }, sleep: async () => undefined });
    service.script.push(problem(503, { "retry-after": new Date(clock.now + 30_000).toUTCString() }));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect((reasonOf(result) as HTTPError).message).toContain("retry after 30 s");
    expect(service.calls).toHaveLength(1);
  });

  it("honours Retry-After as an HTTP date against the client's clock", async () => {
    const { client, manual, service, clock } = setup({ sleep: async () => undefined });
    service.script.push(problem(503, { "retry-after": new Date(clock.now + 3_000).toUTCString() }));
    await flushAll(manual, [client.price(key)]);
    expect(client.lineage(key)?.request?.retryDelaysMs).toEqual([3_000]);
  });

  it("reads Retry-After forms and computes full-jitter backoff", () => {
    expect(parseRetryAfter("120", 0)).toBe(120_000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:00 GMT"))).toBe(60_000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    const policy = { ...DEFAULT_RETRY_POLICY, backoffBaseMs: 100, backoffMaxMs: 1_000 };
    expect(retryDelay(policy, 1, undefined, () => 0.999)).toBe(99);
    expect(retryDelay(policy, 3, undefined, () => 0.5)).toBe(200);
    expect(retryDelay(policy, 10, undefined, () => 0.5)).toBe(500);
    expect(retryDelay(policy, 1, 60_000, () => 0.5)).toBe(policy.maxRetryAfterMs);
    expect(retryDelay(policy, 1, 7_000, () => 0.5)).toBe(7_000);
    expect(retryAfterTooLong(policy, policy.maxRetryAfterMs)).toBe(false);
    expect(retryAfterTooLong(policy, policy.maxRetryAfterMs + 1)).toBe(true);
    expect(retryAfterTooLong(policy, undefined)).toBe(false);
  });

  it("retries a connection failure and a truncated JSON body as network errors", async () => {
    const { client, manual, service } = setup();
    service.script.push("throw", new Response('{"instruments":[{"sym', { status: 200 }));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect(valueOf(result).mid).toBeGreaterThan(0);
    expect(service.calls).toHaveLength(3);
  });

  it("reports a network error with status 0 when every attempt fails", async () => {
    const { client, manual, service } = setup();
    service.script.push("throw", "throw", "throw");
    const [result] = await flushAll(manual, [client.price(key)]);
    const error = reasonOf(result);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isNetworkError(error) && isHTTPError(error) && error.status).toBe(0);
  });

  it("times out a request that never answers, and settles", async () => {
    const { client, manual, service } = setup({ timeoutMs: 20, retry: { limit: 2, backoffBaseMs: 1 } });
    service.script.push("hang", "hang");
    const [result] = await flushAll(manual, [client.price(key)]);
    const error = reasonOf(result) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.status).toBe(0);
    expect(error.message).toContain("timed out after 20 ms");
    expect(service.calls).toHaveLength(2);
  });

  it("settles with TimeoutError when the token provider never answers, sending nothing", async () => {
    const { client, manual, calls } = setup({ timeoutMs: 30, tokenProvider: { getToken: () => new Promise<string>(() => undefined) } });
    const [result] = await within(60_000, flushAll(manual, [client.price(key)]));
    const error = reasonOf(result);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("Request failed (no token from the token provider within 30 ms): GET /Prices");
    expect(calls).toHaveLength(0);
  });

  it("keeps at most maxInFlight requests in flight", async () => {
    const { client, manual, service } = setup({ maxInFlight: 2, limits: { maxSymbols: 1 } });
    const results = await flushAll(manual, ["A", "B", "C", "D", "E"].map((symbol) => client.price({ symbol })));
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
    expect(service.calls).toHaveLength(5);
    expect(service.maxActive).toBe(2);
  });
});

describe("one budget per key", () => {
  /** A clock that only the client's sleeps move: every wait is counted against the key's budget. */
  function timed(options: Parameters<typeof setup>[0] = {}) {
    // Floors of 1: these refusals teach a limit of one symbol on purpose.
    const context = setup({ budgetMs: 10_000, limitFloors: { maxSymbols: 1, maxDates: 1, maxRecords: 1 }, ...options, sleep: async (ms) => void (context.clock.now += ms) });
    return context;
  }
  const limitRefusal = (): Response =>
    json({ type: "about:blank", title: "Bad Request", status: 400, detail: "1 symbols x 1 dates is over the limit of 0 price records", errors: [{ parameter: "Symbols", message: "2 symbols is over the limit of 1 symbols per request (maxSymbols)" }] }, 400);

  it("spans the request planned again after a refusal that names a limit: the key fails with its cause within the budget", async () => {
    const { client, manual, service, clock } = timed();
    const started = clock.now;
    // 8 s of Retry-After, then a refusal naming a smaller limit; the requests planned again meet a busy service.
    service.script.push(problem(503, { "retry-after": "4" }), problem(503, { "retry-after": "4" }), limitRefusal(), problem(503, { "retry-after": "4" }), problem(503, { "retry-after": "4" }));
    const results = await flushAll(manual, [client.price(key), client.price({ ...key, symbol: "BBB" })]);
    for (const result of results) expect((reasonOf(result) as HTTPError).status).toBe(503);
    expect(clock.now - started).toBeLessThanOrEqual(10_000);
    // One request of two keys (3 attempts), then one per key: no time is left to wait for a retry.
    expect(service.calls.map((call) => call.symbols.length)).toEqual([2, 2, 2, 1, 1]);
  });

  it("keeps the refusal as the cause of a key whose time ran out before it could be planned again", async () => {
    const { client, manual, service, clock } = timed({ budgetMs: 8_500 });
    const slowRefusal = (): Response => {
      clock.now += 1_000;
      return limitRefusal();
    };
    service.script.push(problem(503, { "retry-after": "4" }), problem(503, { "retry-after": "4" }), slowRefusal);
    const results = await flushAll(manual, [client.price(key), client.price({ ...key, symbol: "BBB" })]);
    for (const result of results) expect((reasonOf(result) as HTTPError).status).toBe(400);
    expect(service.calls).toHaveLength(3);
  });

  it("is spent by the parts of a long history and then by its forecast probe, which gives up in time", async () => {
    const { client, manual, service, clock } = timed({ limits: { maxRecords: 10 }, maxInFlight: 1 });
    // A long history first asks its instrument's launch: have it kept, so the calls below are the history's.
    const instrument = client.instrument("AAA");
    manual.flush();
    await instrument;
    service.calls.length = 0;
    const started = clock.now;
    // Two parts wait out 4 s of Retry-After each (one clock): the probe for a forecast then has 2 s left, too little for 4 s.
    service.script.push(problem(503, { "retry-after": "4" }), problem(503, { "retry-after": "4" }));
    const asked = client.history({ symbol: "AAA", fromDate: "2024-01-01", toDate: "2024-01-30", forecastType: "F24M" });
    let settled = false;
    void asked.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled) {
      manual.flush();
      if (service.calls.length === 5) service.script.push(problem(503, { "retry-after": "4" }), problem(503, { "retry-after": "4" }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await asked).prices.length).toBeGreaterThan(0);
    // Three parts (two of them tried twice), then the probe once: it is not retried past the key's budget.
    expect(service.calls).toHaveLength(6);
    expect(service.calls[5]?.params.ToDate).toBe("2024-01-30");
    expect(clock.now - started).toBeLessThanOrEqual(10_000);
  });
});

describe("authorization", () => {
  function countingProvider(tokens: string[]): TokenProvider & { calls: (TokenRequestOptions | undefined)[] } {
    const calls: (TokenRequestOptions | undefined)[] = [];
    return {
      calls,
      getToken(options) {
        calls.push(options);
        return Promise.resolve(options?.rejected === tokens[0] ? (tokens[1] ?? "none") : (tokens[0] ?? "none"));
      },
    };
  }

  it("sends the token as a bearer header", async () => {
    const { client, manual, calls } = setup();
    await flushAll(manual, [client.price(key)]);
    expect(calls[0]?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("on a 401 names the rejected token to the provider and retries once", async () => {
    const provider = countingProvider(["stale", "fresh"]);
    const { client, manual, calls } = setup({ tokenProvider: provider, fake: { validTokens: ["fresh"] } });
    const [result] = await flushAll(manual, [client.price(key)]);
    expect(valueOf(result).date).toBe("2024-03-01");
    // Told at once (so requests queued with the token take its successor), then once more by the retry.
    expect(provider.calls).toEqual([undefined, { rejected: "stale" }, { rejected: "stale" }]);
    expect(calls.map((call) => call.authorization)).toEqual(["Bearer stale", "Bearer fresh"]);
  });

  it("counts the attempt after a 401 within the limit: 401, 503, 503 is 3 attempts in all", async () => {
    const provider = countingProvider(["stale", "fresh"]);
    const { client, manual, service } = setup({ tokenProvider: provider, fake: { validTokens: ["fresh"] } });
    service.script.push(problem(401), problem(503), problem(503), problem(503));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect((reasonOf(result) as HTTPError).status).toBe(503);
    expect(service.calls).toHaveLength(3);
    expect(service.calls.slice(0, 2).map((call) => call.authorization)).toEqual(["Bearer stale", "Bearer fresh"]);
    expect(provider.calls).toEqual([undefined, { rejected: "stale" }, { rejected: "stale" }, { rejected: "stale" }]);
    expect(client.lineage(key)?.request?.attempts).toBe(3);
  });

  it("fails a 401 on the last attempt with AuthError, without a fourth attempt", async () => {
    const provider = countingProvider(["stale", "fresh"]);
    const { client, manual, service } = setup({ tokenProvider: provider });
    service.script.push(problem(503), problem(503), problem(401));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect((reasonOf(result) as AuthError).reason).toBe("rejected");
    expect(service.calls).toHaveLength(3);
  });

  it("after a second 401 fails with AuthError and never shows the token", async () => {
    const provider = countingProvider(["stale", "still-bad"]);
    const { client, manual, calls } = setup({ tokenProvider: provider, fake: { validTokens: ["good"] } });
    const [result] = await flushAll(manual, [client.price(key)]);
    const error = reasonOf(result) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.reason).toBe("rejected");
    expect(error.status).toBe(401);
    expect(calls).toHaveLength(2);
    const shown = `${error.message} ${JSON.stringify(error)} ${error.stack ?? ""}`;
    expect(shown).not.toContain("still-bad");
  });

  it("turns a token provider's failure into AuthError 'not signed in' without sending", async () => {
    const { client, manual, calls } = setup({ tokenProvider: { getToken: () => Promise.reject(new Error("no account")) } });
    const [result] = await flushAll(manual, [client.price(key)]);
    expect(reasonOf(result)).toBeInstanceOf(AuthError);
    expect(reasonOf(result).message).toBe("not signed in");
    expect(calls).toHaveLength(0);
  });

  it("redacts the Authorization header in error descriptions", async () => {
    const { client, manual, service } = setup();
    service.script.push(problem(404));
    const [result] = await flushAll(manual, [client.price(key)]);
    const error = reasonOf(result) as HTTPError;
    expect(error.request.headers.authorization).toBe(REDACTED);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(error.url).not.toContain(TOKEN);
  });

  it("answers a 403 with AuthError 'forbidden' without retrying", async () => {
    const { client, manual, service } = setup();
    service.script.push(json({ type: "about:blank", title: "Forbidden", status: 403, detail: "scope" }, 403));
    const [result] = await flushAll(manual, [client.price(key)]);
    expect((reasonOf(result) as AuthError).reason).toBe("forbidden");
    expect(service.calls).toHaveLength(1);
  });
});

describe("long requests", () => {
  const symbols = Array.from({ length: 40 }, (_, index) => `LONG-SYMBOL-${String(index).padStart(4, "0")}`);

  it("sends a query longer than maxQueryLength as POST with a form body, with the same answers", async () => {
    const { client, manual, calls } = setup({ maxQueryLength: 200 });
    const results = await flushAll(manual, symbols.map((symbol) => client.price({ symbol, date: "2024-03-01" })));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.symbols).toEqual(symbols);
    expect(calls[0]?.dates).toEqual(["2024-03-01"]);
    symbols.forEach((symbol, index) => expect(valueOf(results[index]).mid).toBe(midOf(symbol, "2024-03-01")));
    expect(client.lineage({ symbol: symbols[0] as string, date: "2024-03-01" })?.request?.method).toBe("POST");
  });

  it("keeps GET for a query within maxQueryLength", async () => {
    const { client, manual, calls } = setup({ maxQueryLength: 200 });
    await flushAll(manual, symbols.slice(0, 2).map((symbol) => client.price({ symbol, date: "2024-03-01" })));
    expect(calls[0]?.method).toBe("GET");
  });

  it("names the path, not the form body, when a POST fails", async () => {
    const { client, manual, service } = setup({ maxQueryLength: 200 });
    service.script.push(problem(400));
    const [result] = await flushAll(manual, symbols.map((symbol) => client.price({ symbol, date: "2024-03-01" })));
    const error = reasonOf(result) as HTTPError;
    expect(error.method).toBe("POST");
    expect(error.url).toBe(`${BASE}/Prices`);
    expect(error.message).toBe("Request failed with status 400 Bad Request: POST /Prices (failure 400)");
  });
});
