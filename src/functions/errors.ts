/**
 * What goes wrong in a function, as the two Excel error codes the functions use, with messages
 * that say what to fix. Office's `CustomFunctions.Error` is made only by the `MakeError` the
 * caller supplies, so this module runs in Node.
 */

export type ErrorCodeText = "#VALUE!" | "#N/A";

/** Builds the error value a cell holds (CustomFunctions.Error in Excel, a stand-in in tests), marked when the service gave no answer about it. */
export type MakeError = (code: ErrorCodeText, message: string, unanswered?: Unanswered) => unknown;

/** The service's words for a symbol that is unknown or outside the caller's entitlement (both read alike, convention 6). */
const UNKNOWN_SYMBOL_DETAIL = /unknown|not permitted|permission|entitle|may view|not one you/i;

export const SIGN_IN_MESSAGE = "sign in from the Prices pane";
export const NO_PERMISSION_MESSAGE = "no permission: the service refused this account access (403); ask your administrator for access to Physical Prices";
export const REJECTED_MESSAGE = "the service rejected the sign-in even after a renewal (401): sign in again from the Prices pane";

/** A bad argument: becomes #VALUE! with this message. */
export class ArgumentError extends Error {
  override name = "ArgumentError";
}

/** A value that does not exist (unknown field value, empty search): becomes #N/A with this message. */
export class NotAvailableError extends Error {
  override name = "NotAvailableError";
}

/** A call the client did not settle by the cell's deadline: #N/A with this message, and no answer about the cell. */
export class NoAnswerError extends Error {
  override name = "NoAnswerError";
}

/**
 * Why a call has no answer from the service about its cell, when that is the failure: the service unreachable, no
 * answer in time, its own fault (5xx), a rate limit (429, the session's request budget), the sign-in or the token
 * refused, an answer the client cannot read. None of them says anything of the cell's price: a runner keeps the value
 * it had rather than write one of them (src/host/custom-calls.ts); Excel shows them as errors as before.
 */
export const UNANSWERED_KINDS = ["unreachable", "timeout", "service-error", "rate-limited", "refused", "unexpected-answer"] as const;
export type Unanswered = (typeof UNANSWERED_KINDS)[number];

export interface Failure {
  code: ErrorCodeText;
  message: string;
  /** Set when the failure is no answer about the cell (transport, 5xx, 429, auth, timeout) rather than the service's answer about it. */
  unanswered?: Unanswered;
}

function field(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** The message of an error and of its causes, joined, so "unreachable" says why. */
function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const message = text(field(current, "message")) ?? (typeof current === "string" ? current : undefined);
    // a cause its error already quotes ("Request failed (Failed to fetch)" of "Failed to fetch") is said once
    if (message !== undefined && !parts.some((part) => part.includes(message))) parts.push(message);
    current = field(current, "cause");
  }
  return parts.length > 0 ? parts.join(": ") : "unknown error";
}

/**
 * An AuthError by its reason: signed out; no permission (403); rejected after a renewal; token service
 * busy or renewal failing, whose own messages say the cause and when the token provider retries.
 */
function authMessage(error: unknown, message: string): string {
  switch (field(error, "reason")) {
    case "forbidden":
      return NO_PERMISSION_MESSAGE;
    case "rejected":
      return REJECTED_MESSAGE;
    case "token-service-busy":
    case "renewal-failing":
      return `still signed in, but ${message}; recalculate after that`;
    case "sign-in-refused":
      // The token service's own refusal, named (a proxy's 403, an unregistered client id), not a 401 from the API.
      return message;
    default:
      return SIGN_IN_MESSAGE;
  }
}

/**
 * Maps anything a function or the prices client throws to a code and message. Client errors are
 * recognised by `name` (the client's guards do the same), so this module does not import the client.
 */
export function describeFailure(error: unknown): Failure {
  const failure = describeAnswer(error);
  const unanswered = unansweredKind(error);
  return unanswered === undefined ? failure : { ...failure, unanswered };
}

/**
 * Whether `error` is no answer about the cell, and of which kind, by the client's error types (their `name` and
 * `status`, never their words): a status the client retries (408, 429, 5xx) or a network failure, a refused sign-in
 * or token (401, 403, 407, any AuthError), the client's own request budget, the call's deadline, an unreadable
 * answer, and a 4xx but 400 (a proxy's page, or the service's for a wrong address: never the service speaking of a key).
 */
function unansweredKind(error: unknown): Unanswered | undefined {
  switch (field(error, "name")) {
    case "NetworkError":
      return "unreachable";
    case "TimeoutError":
    case "NoAnswerError":
      return "timeout";
    case "AuthError":
      return "refused";
    case "RequestLimitError":
      return "rate-limited";
    case "ResponseFormatError":
      return "unexpected-answer";
    case "HTTPError": {
      const status = field(error, "status");
      if (typeof status !== "number" || status === 0) return "unreachable";
      if (status === 408) return "timeout";
      if (status === 429) return "rate-limited";
      if (status === 401 || status === 403 || status === 407) return "refused";
      if (status >= 500) return "service-error";
      // a 400 refuses the request's arguments (#VALUE!) whatever its body; no other 4xx speaks of a key: the service
      // answers a key it lacks in a 200's body (the client's InvalidInstrumentError, NoDataError), and a 404 or 405
      // with a problem body is the service's page for a wrong --api path ("No endpoint at this path")
      return status === 400 ? undefined : "unexpected-answer";
    }
    default:
      return undefined;
  }
}

/** The code and words of a failure. */
function describeAnswer(error: unknown): Failure {
  const name = field(error, "name");
  const message = text(field(error, "message")) ?? "unknown error";
  switch (name) {
    case "ArgumentError":
    case "InvalidKeyError":
      return { code: "#VALUE!", message };
    case "NotAvailableError":
    case "NoAnswerError":
    case "NotCachedError":
      return { code: "#N/A", message };
    case "AuthError":
      return { code: "#N/A", message: authMessage(error, message) };
    case "InvalidInstrumentError": {
      const symbol = text(field(error, "symbol"));
      const detail = text(field(error, "detail"));
      if (symbol === undefined) return { code: "#N/A", message };
      // A known symbol that lacks the calculation or forecast type asked: say that, not "unknown".
      if (detail !== undefined && !UNKNOWN_SYMBOL_DETAIL.test(detail)) return { code: "#N/A", message: `'${symbol}': ${detail}` };
      return { code: "#N/A", message: `unknown or not permitted symbol '${symbol}'` };
    }
    case "ConversionError": {
      // The instrument lacks the conversion (the service's message names it), or the service offers none.
      const symbol = text(field(error, "symbol"));
      const detail = text(field(error, "detail"));
      if (symbol !== undefined && detail !== undefined) return { code: "#N/A", message: `'${symbol}': ${detail}` };
      return { code: "#N/A", message };
    }
    case "NoDataError": {
      const symbol = text(field(error, "symbol"));
      const date = text(field(error, "date"));
      return {
        code: "#N/A",
        message:
          symbol !== undefined
            ? `no assessment for '${symbol}'${date === undefined ? "" : ` on or before ${date}`}`
            : message,
      };
    }
    case "HTTPError": {
      const status = field(error, "status");
      if (status === 401) return { code: "#N/A", message: SIGN_IN_MESSAGE };
      if (status === 403) return { code: "#N/A", message: NO_PERMISSION_MESSAGE };
      if (status === 400) return { code: "#VALUE!", message: `the service refused the request: ${causeChain(error)}` };
      if (status === 429) return { code: "#N/A", message: `the service is limiting requests (429): ${causeChain(error)}` };
      return { code: "#N/A", message: `service unreachable: ${causeChain(error)}` };
    }
    case "NetworkError":
    case "TimeoutError":
      return { code: "#N/A", message: `service unreachable: ${causeChain(error)}` };
    case "ResponseFormatError":
      return { code: "#N/A", message: `unexpected answer from the service: ${causeChain(error)}` };
    default:
      return { code: "#N/A", message: causeChain(error) };
  }
}
