/**
 * Which failures are no answer from the service about the cell (a runner keeps the cell's saved value) and which are
 * the service's answer about it (written as the cell's error): told by the client's error types, never their words.
 */
import { describeFailure, NoAnswerError, NotAvailableError } from "../../src/functions/errors";
import { AuthError, ConversionError, HTTPError, InvalidInstrumentError, InvalidKeyError, NetworkError, NoDataError, ResponseFormatError, TimeoutError } from "../../src/prices";
import { RequestLimitError } from "../../src/prices/errors";

const URL = "https://x/physical/v2/Prices?Symbols=A&Dates=2025-05-14";
const problem = (status: number) => ({ type: "about:blank", title: "Problem", status, detail: "the service's words" });

describe("no answer about the cell", () => {
  it.each([
    ["a connection refused", new NetworkError({ method: "GET", url: URL, reason: "connect ECONNREFUSED" }), "unreachable"],
    ["a status 0", new HTTPError({ status: 0, method: "GET", url: URL }), "unreachable"],
    ["a request timed out", new TimeoutError({ method: "GET", url: URL, timeoutMs: 20_000 }), "timeout"],
    ["the cell's deadline", new NoAnswerError("no answer from the service within 120 s; recalculate to try again"), "timeout"],
    ["a 408", new HTTPError({ status: 408, method: "GET", url: URL, problem: problem(408) }), "timeout"],
    ["a 429 after the retries", new HTTPError({ status: 429, method: "GET", url: URL, problem: problem(429) }), "rate-limited"],
    ["the session's request budget", new RequestLimitError("the client's limit of 100 requests per refresh was reached"), "rate-limited"],
    ["a 500", new HTTPError({ status: 500, method: "GET", url: URL, problem: problem(500) }), "service-error"],
    ["a 503 without a body", new HTTPError({ status: 503, method: "GET", url: URL }), "service-error"],
    ["a 501", new HTTPError({ status: 501, method: "GET", url: URL }), "service-error"],
    ["a 401", new HTTPError({ status: 401, method: "GET", url: URL }), "refused"],
    ["a 403", new HTTPError({ status: 403, method: "GET", url: URL, problem: problem(403) }), "refused"],
    ["a token rejected after a renewal", new AuthError({ reason: "rejected", status: 401 }), "refused"],
    ["not signed in", new AuthError({ reason: "not-signed-in" }), "refused"],
    ["the sign-in refused", new AuthError({ reason: "sign-in-refused", message: "invalid_client" }), "refused"],
    ["an answer missing a field", new ResponseFormatError("instruments[0].prices", "is missing"), "unexpected-answer"],
    ["a 404 page that is no problem body (a wrong --api)", new HTTPError({ status: 404, method: "GET", url: URL }), "unexpected-answer"],
    ["the service's own 404 problem body for a wrong --api path", new HTTPError({ status: 404, method: "GET", url: URL, problem: problem(404) }), "unexpected-answer"],
    ["a 405 with a problem body", new HTTPError({ status: 405, method: "GET", url: URL, problem: problem(405) }), "unexpected-answer"],
  ])("marks %s", (_, error, kind) => {
    expect(describeFailure(error).unanswered).toBe(kind);
  });
});

describe("the service's answer about the cell", () => {
  it.each([
    ["an unknown symbol", new InvalidInstrumentError("ZZ-NOPE", "unknown symbol")],
    ["no assessment on the date", new NoDataError("MB-AL-0004", "2001-01-01")],
    ["a conversion the instrument lacks", new ConversionError("EUR", "MB-AL-0004", "no EUR for this instrument")],
    ["a bad argument", new InvalidKeyError("dates", "dates must be a date")],
    ["a 400 with a problem body", new HTTPError({ status: 400, method: "GET", url: URL, problem: problem(400) })],
    ["a 400 without one", new HTTPError({ status: 400, method: "GET", url: URL })],
    ["a value that does not exist", new NotAvailableError("no such field value")],
  ])("leaves %s unmarked", (_, error) => {
    expect(describeFailure(error).unanswered).toBeUndefined();
  });
});

describe("the words", () => {
  it("say an unreachable service once, without the cause its message already quotes", () => {
    const error = new NetworkError({ method: "GET", url: URL, cause: new TypeError("Failed to fetch") });
    expect(describeFailure(error)).toEqual({ code: "#N/A", message: "service unreachable: Request failed (Failed to fetch): GET /Prices", unanswered: "unreachable" });
  });
});
