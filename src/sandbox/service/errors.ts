/** Any error reaching the app's error handler, as a problem that leaks nothing (conventions 7, 8). */
import { ProblemError, isProblemError } from "./problems";

/** The token service's `AuthFailure` (status 401 or 403), recognised by shape so that this module needs no import of it. */
interface AuthFailureLike {
  status: 401 | 403;
  message: string;
  /** RFC 6750 header value, when the failure writes its own. */
  wwwAuthenticate?: unknown;
}

function isAuthFailure(error: unknown): error is AuthFailureLike {
  if (!(error instanceof Error) || error.name !== "AuthFailure") return false;
  const { status } = error as unknown as Record<string, unknown>;
  return status === 401 || status === 403;
}

function headerOf(error: AuthFailureLike, fallback: string): string {
  const own = error.wwwAuthenticate;
  return typeof own === "string" && /^Bearer error="(invalid_token|insufficient_scope)"/.test(own) ? own : fallback;
}

export function authProblem(error: AuthFailureLike, scope: string): ProblemError {
  if (error.status === 403) {
    return new ProblemError(403, `The access token does not carry the scope ${scope}`, undefined, {
      "www-authenticate": headerOf(error, `Bearer error="insufficient_scope", scope="${scope}"`),
    });
  }
  const detail = error.message && error.message.length <= 200 ? error.message : "The access token is missing or invalid";
  return new ProblemError(401, detail, undefined, { "www-authenticate": headerOf(error, 'Bearer error="invalid_token"') });
}

function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const value = (error as Record<string, unknown>)["statusCode"];
  return typeof value === "number" ? value : undefined;
}

function codeOf(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const value = (error as Record<string, unknown>)["code"];
  return typeof value === "string" ? value : "";
}

export function toProblemError(error: unknown, scope: string): { problem: ProblemError; unexpected: boolean } {
  if (isProblemError(error)) return { problem: error, unexpected: false };
  if (isAuthFailure(error)) return { problem: authProblem(error, scope), unexpected: false };
  const status = statusCodeOf(error);
  const code = codeOf(error);
  if (status === 415 || code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return {
      problem: new ProblemError(415, "Send parameters as query data, application/x-www-form-urlencoded or multipart/form-data", [
        { parameter: "Content-Type", message: "is not a supported media type" },
      ]),
      unexpected: false,
    };
  }
  if (status === 413) {
    return {
      problem: new ProblemError(413, "The request body is over the size limit", [{ parameter: "body", message: "is too large" }]),
      unexpected: false,
    };
  }
  if (status !== undefined && status >= 400 && status < 500) {
    const validation = (error as { validation?: unknown; validationContext?: unknown }).validationContext;
    const parameter = validation === "querystring" ? "query" : "body";
    return {
      problem: new ProblemError(400, "The request could not be read: malformed query or form body", [
        { parameter, message: "is malformed" },
      ]),
      unexpected: false,
    };
  }
  return { problem: new ProblemError(500, "The sandbox failed to answer this request"), unexpected: true };
}

/** A multipart body that could not be read. */
export function malformedBody(): ProblemError {
  return new ProblemError(400, "The request could not be read: malformed multipart form body", [{ parameter: "body", message: "is malformed" }]);
}
