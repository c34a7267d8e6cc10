/** RFC 9457 problem details (convention 7): the one error shape of the sandbox's API. */
import type { Problem } from "../../api";
import { problemTitle, type ProblemAnswer } from "../../hardening/problems";

export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 408 | 413 | 415 | 429 | 431 | 500 | 503;

/** Stable `type` URIs so that clients can tell problems apart without parsing `detail`. */
const TYPES: Record<ProblemStatus, string> = {
  400: "https://localhost/problems/bad-request",
  401: "https://localhost/problems/invalid-token",
  403: "https://localhost/problems/insufficient-scope",
  404: "https://localhost/problems/not-found",
  405: "https://localhost/problems/method-not-allowed",
  408: "https://localhost/problems/request-timeout",
  413: "https://localhost/problems/content-too-large",
  415: "https://localhost/problems/unsupported-media-type",
  429: "https://localhost/problems/too-many-requests",
  431: "https://localhost/problems/header-fields-too-large",
  500: "https://localhost/problems/internal-error",
  503: "https://localhost/problems/unavailable",
};

export interface ParameterError {
  parameter: string;
  message: string;
}

/** A problem to answer with; thrown by parsers and queries, turned into a response by the app's error handler. */
export class ProblemError extends Error {
  override readonly name = "ProblemError";
  readonly status: ProblemStatus;
  readonly errors: ParameterError[] | undefined;
  /** Extra response headers (Retry-After, WWW-Authenticate, Allow). */
  readonly headers: Record<string, string>;

  constructor(status: ProblemStatus, detail: string, errors?: ParameterError[], headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.errors = errors && errors.length > 0 ? errors : undefined;
    this.headers = headers;
  }

  toProblem(): Problem {
    return problemBody(this.status, this.message, this.errors);
  }

  /** What the hardening's problem writer sends. */
  answer(): ProblemAnswer {
    return { status: this.status, body: this.toProblem(), headers: this.headers };
  }
}

export function problemBody(status: ProblemStatus, detail: string, errors?: ParameterError[]): Problem {
  const body: Problem = { type: TYPES[status], title: problemTitle(status), status, detail };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}

export function isProblemError(value: unknown): value is ProblemError {
  return value instanceof ProblemError || (value instanceof Error && value.name === "ProblemError" && "toProblem" in value);
}

/** Most entries of a problem's `errors` (convention 8a); `detail` says how many more there were. */
export const MAX_LISTED_ERRORS = 20;

/** 400 naming the parameters at fault: at most 20 errors listed, and the count of the rest. */
export function badRequest(errors: ParameterError[]): ProblemError {
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  const more = errors.length - listed.length;
  const names = [...new Set(listed.map((e) => e.parameter))];
  let detail =
    errors.length === 1 && errors[0] !== undefined
      ? `${errors[0].parameter}: ${errors[0].message}`
      : `${errors.length} errors in ${names.length === 1 ? "parameter" : "parameters"} ${names.join(", ")}${more > 0 ? ", ..." : ""}`;
  if (more > 0) detail += `; the first ${listed.length} are listed, ${more} more are not`;
  return new ProblemError(400, detail, listed);
}
