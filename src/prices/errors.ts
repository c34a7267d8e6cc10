/**
 * One error family for the client (ky, octokit/request-error): a base class, subclasses with their own
 * `name`, and guards that also accept an error whose class came from another copy of this module.
 * The `Authorization` header never appears: requests are described with it redacted.
 */
import type { Problem } from "../api/schemas";

export const REDACTED = "[REDACTED]";

/** What an error says about the request that failed; the token is never kept. */
export interface RequestDescription {
  method: string;
  url: string;
  headers: { authorization: typeof REDACTED };
}

export class PricesError extends Error {
  override name = "PricesError";
}

export interface HTTPErrorOptions {
  status: number;
  /** The response's reason phrase (`Response.statusText`); empty over HTTP/2. */
  statusText?: string;
  method: string;
  url: string;
  problem?: Problem;
  cause?: unknown;
  message?: string;
  /** The service's `Retry-After`, in ms, when it sent one: the message then says when to try again. */
  retryAfterMs?: number;
}

/** The service answered with a status that is not success; `status` is 0 for network-class failures. */
export class HTTPError extends PricesError {
  override name = "HTTPError";
  readonly status: number;
  readonly method: string;
  /** Full URL with its query; it never holds a token (tokens travel in the header only). */
  readonly url: string;
  /** RFC 9457 problem details when the body held them. */
  readonly problem: Problem | undefined;
  /** How long the service asked the client to wait (`Retry-After`), in ms, when it said. */
  readonly retryAfterMs: number | undefined;
  readonly request: RequestDescription;
  constructor(options: HTTPErrorOptions) {
    // the title is HTTP's own: the reason phrase as the platform read it, else (HTTP/2 has none) the service's problem title
    const text = options.statusText || options.problem?.title || "";
    const detail = options.problem?.detail ? ` (${options.problem.detail})` : "";
    const retry = options.retryAfterMs !== undefined ? `; retry after ${Math.ceil(options.retryAfterMs / 1000)} s` : "";
    super(
      options.message ??
        `Request failed with status ${options.status}${text ? ` ${text}` : ""}: ${options.method} ${pathOf(options.url)}${detail}${retry}`,
      { cause: options.cause },
    );
    this.status = options.status;
    this.method = options.method;
    this.url = options.url;
    this.problem = options.problem;
    this.retryAfterMs = options.retryAfterMs;
    this.request = { method: options.method, url: options.url, headers: { authorization: REDACTED } };
  }
}

/** No usable answer: connection refused or dropped, body cut short or not JSON. Retryable. */
export class NetworkError extends HTTPError {
  override name = "NetworkError";
  constructor(options: { method: string; url: string; cause?: unknown; reason?: string }) {
    super({
      status: 0,
      method: options.method,
      url: options.url,
      cause: options.cause,
      message: `Request failed (${options.reason ?? describeCause(options.cause)}): ${options.method} ${pathOf(options.url)}`,
    });
  }
}

/** No answer within the client's `timeoutMs`. Retryable, like any network-class failure. */
export class TimeoutError extends NetworkError {
  override name = "TimeoutError";
  readonly timeoutMs: number;
  /** `reason` replaces "timed out after N ms" in the message (e.g. for a token that never came). */
  constructor(options: { method: string; url: string; timeoutMs: number; reason?: string }) {
    super({ method: options.method, url: options.url, reason: options.reason ?? `timed out after ${options.timeoutMs} ms` });
    this.timeoutMs = options.timeoutMs;
  }
}

/**
 * Why there is no usable token: never signed in or signed out; the service rejected the token or refused
 * the scope (403); the token service is busy (429, or the client's own limit of token requests); renewal
 * failing for a transient reason (network, timeout, 5xx) while the session is kept and retried.
 */
export type AuthErrorReason = "not-signed-in" | "rejected" | "forbidden" | "token-service-busy" | "renewal-failing" | "sign-in-refused";

export interface AuthErrorOptions {
  reason: AuthErrorReason;
  status?: number;
  method?: string;
  url?: string;
  cause?: unknown;
  message?: string;
  /** When the token provider tries again (epoch ms), for "token-service-busy" and "renewal-failing". */
  retryAt?: number;
  /** The OAuth `error` code of a refused token request (`invalid_grant`, ...). */
  code?: string;
}

/** No token could be had, or the service rejected it after one refresh (or refused the scope). */
export class AuthError extends PricesError {
  override name = "AuthError";
  readonly reason: AuthErrorReason;
  readonly status: number;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly retryAt: number | undefined;
  readonly code: string | undefined;
  constructor(options: AuthErrorOptions) {
    const where = options.method && options.url ? `: ${options.method} ${pathOf(options.url)}` : "";
    super(`${options.message ?? AUTH_WORDS[options.reason]}${where}`, { cause: options.cause });
    this.reason = options.reason;
    this.status = options.status ?? 0;
    this.method = options.method;
    this.url = options.url;
    this.retryAt = options.retryAt;
    this.code = options.code;
  }
}

const AUTH_WORDS: Record<AuthErrorReason, string> = {
  "not-signed-in": "not signed in",
  rejected: "token rejected",
  forbidden: "access to the service not permitted",
  "token-service-busy": "token service busy",
  "renewal-failing": "token renewal failing",
  "sign-in-refused": "the sign-in service refused the token request",
};

/** The service listed the symbol in `invalidInstruments`: unknown, not permitted, or lacking the type asked. */
export class InvalidInstrumentError extends PricesError {
  override name = "InvalidInstrumentError";
  readonly symbol: string;
  /** The service's own message, when it gave one. */
  readonly detail: string | undefined;
  constructor(symbol: string, detail?: string) {
    super(`${symbol}: unknown or not permitted${detail ? ` (${detail})` : ""}`);
    this.symbol = symbol;
    this.detail = detail;
  }
}

/**
 * A conversion (convention 21) the service cannot give: not available for the instrument (`detail` is the
 * service's message), or not offered at all (the service refused or ignored the parameters).
 */
export class ConversionError extends PricesError {
  override name = "ConversionError";
  readonly symbol: string | undefined;
  /** `EUR/LB`, `EUR` or `/LB`. */
  readonly target: string;
  readonly detail: string | undefined;
  constructor(target: string, symbol?: string, detail?: string) {
    super(
      symbol === undefined
        ? `this service does not offer conversion to ${target}`
        : `${symbol}: conversion to ${target} is not available${detail ? ` (${detail})` : ""}`,
    );
    this.symbol = symbol;
    this.target = target;
    this.detail = detail;
  }
}

/** The instrument exists but has no value for the date asked (before its first assessment). */
export class NoDataError extends PricesError {
  override name = "NoDataError";
  readonly symbol: string;
  readonly date: string | undefined;
  constructor(symbol: string, date: string | undefined, message?: string) {
    super(message ?? (date ? `${symbol}: no assessment on or before ${date}` : `${symbol}: no assessment`));
    this.symbol = symbol;
    this.date = date;
  }
}

/** A success response that lacks a required field or has one of the wrong type. Not retried. */
export class ResponseFormatError extends PricesError {
  override name = "ResponseFormatError";
  /** Path of the offending field, e.g. `instruments[2].prices[0].mid`. */
  readonly field: string;
  readonly method: string | undefined;
  readonly url: string | undefined;
  constructor(field: string, problem: string, request?: { method: string; url: string }) {
    super(`Response field "${field}" ${problem}${request ? `: ${request.method} ${pathOf(request.url)}` : ""}`);
    this.field = field;
    this.method = request?.method;
    this.url = request?.url;
  }
}

/** A key the client cannot ask for: malformed date, unknown field or type, empty symbol. Never sent. */
export class InvalidKeyError extends PricesError {
  override name = "InvalidKeyError";
  readonly argument: string;
  constructor(argument: string, message: string) {
    super(message);
    this.argument = argument;
  }
}

/** The session's governor stopped a request: a refresh spent its requests, or a refusal named a limit below the floor. */
export class RequestLimitError extends PricesError {
  override name = "RequestLimitError";
}

/** A cache-only ask (Excel's value preview while the user types) found nothing kept: no request was sent. */
export class NotCachedError extends PricesError {
  override name = "NotCachedError";
  constructor() {
    super("not fetched yet: the value preview shows kept values only, and the cell fetches when the formula is entered");
  }
}

function isNamed(error: unknown, names: readonly string[]): boolean {
  return typeof error === "object" && error !== null && names.includes(String((error as { name?: unknown }).name));
}

const HTTP_NAMES = ["HTTPError", "NetworkError", "TimeoutError"] as const;
const ALL_NAMES = [
  "PricesError",
  ...HTTP_NAMES,
  "AuthError",
  "InvalidInstrumentError",
  "ConversionError",
  "NoDataError",
  "ResponseFormatError",
  "InvalidKeyError",
  "NotCachedError",
  "RequestLimitError",
] as const;

export function isPricesError(error: unknown): error is PricesError {
  return error instanceof PricesError || (error instanceof Error && isNamed(error, ALL_NAMES));
}
export function isHTTPError(error: unknown): error is HTTPError {
  return error instanceof HTTPError || (isNamed(error, HTTP_NAMES) && typeof (error as { status?: unknown }).status === "number");
}
export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError || isNamed(error, ["NetworkError", "TimeoutError"]);
}
export function isTimeoutError(error: unknown): error is TimeoutError {
  return error instanceof TimeoutError || isNamed(error, ["TimeoutError"]);
}
export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError || isNamed(error, ["AuthError"]);
}
export function isInvalidInstrumentError(error: unknown): error is InvalidInstrumentError {
  return error instanceof InvalidInstrumentError || isNamed(error, ["InvalidInstrumentError"]);
}
export function isConversionError(error: unknown): error is ConversionError {
  return error instanceof ConversionError || isNamed(error, ["ConversionError"]);
}
export function isNoDataError(error: unknown): error is NoDataError {
  return error instanceof NoDataError || isNamed(error, ["NoDataError"]);
}
export function isResponseFormatError(error: unknown): error is ResponseFormatError {
  return error instanceof ResponseFormatError || isNamed(error, ["ResponseFormatError"]);
}
export function isInvalidKeyError(error: unknown): error is InvalidKeyError {
  return error instanceof InvalidKeyError || isNamed(error, ["InvalidKeyError"]);
}

/** `https://host/physical/v2/Prices?Symbols=..` -> `/Prices`, for short messages. */
function pathOf(url: string): string {
  const marker = url.indexOf("/physical/v2");
  const rest = marker >= 0 ? url.slice(marker + "/physical/v2".length) : url.replace(/^[a-z]+:\/\/[^/]+/i, "");
  const query = rest.indexOf("?");
  return (query >= 0 ? rest.slice(0, query) : rest) || "/";
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code ?? (cause.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" ? `${cause.message} ${code}` : cause.message;
  }
  return "network error";
}
