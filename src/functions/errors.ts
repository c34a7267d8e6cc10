/**
 * What goes wrong in a function, as the two Excel error codes the functions use, with messages
 * that say what to fix. Office's `CustomFunctions.Error` is made only by the `MakeError` the
 * caller supplies, so this module runs in Node.
 */

export type ErrorCodeText = "#VALUE!" | "#N/A";

/** Builds the error value a cell holds (CustomFunctions.Error in Excel, a stand-in in tests). */
export type MakeError = (code: ErrorCodeText, message: string) => unknown;

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

export interface Failure {
  code: ErrorCodeText;
  message: string;
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
    if (message !== undefined && !parts.includes(message)) parts.push(message);
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
  const name = field(error, "name");
  const message = text(field(error, "message")) ?? "unknown error";
  switch (name) {
    case "ArgumentError":
    case "InvalidKeyError":
      return { code: "#VALUE!", message };
    case "NotAvailableError":
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
