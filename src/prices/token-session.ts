/**
 * The one token provider: holds a token, renews it before expiry, and decides by a policy written as
 * data what a failed renewal means. Scripts' client credentials, service keys and the pane's signed-in
 * user all run on it; they differ only in how they ask for a token (`grant`) and in their policy.
 *
 * - Single flight: concurrent callers share one token request. A caller whose token the service
 *   rejected (401) names it (`rejected`); a refresh happens only while that token is still the one held,
 *   so N concurrent 401s on one token make one token request.
 * - A transient failure (network, timeout, 5xx, 429, the client's own request limit) keeps the session:
 *   the held token is served while valid, and renewal is retried with backoff (or after `Retry-After`).
 * - The session ends only on `invalid_grant`, on another refusal once no valid token is held, or, when
 *   the policy says so, once the token expired without a renewal. Every answered token request, a
 *   malformed one included, counts toward the vendor's limit; a `Retry-After` is capped.
 */
import { AuthError, PricesError } from "./errors";
import { backoffDelay, TRANSIENT_STATUSES, type Jitter } from "./retry";
import type { TokenGrant } from "./token-request";
import type { TokenProvider, TokenRequestOptions } from "./types";

export interface TokenPolicy {
  /** Renew when this share of a token's lifetime is left, clamped to [renewMinMs, renewMaxMs] before expiry. */
  renewShare: number;
  renewMinMs: number;
  renewMaxMs: number;
  /** A token this close to its expiry is not handed out: the request must reach the service while it is valid. */
  expiryMarginMs: number;
  /** Token-service statuses worth retrying: network failures (0) and TRANSIENT_STATUSES; any other 4xx ends the session, no 5xx does. */
  transientStatuses: readonly number[];
  /** Wait before renewal attempt n+1 after n transient failures: min(max, base x 2^(n-1)), the upper half jittered ("equal"). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  jitter: Jitter;
  /** End the session once its token expired without a renewal (a user's refresh token); a credential grant keeps trying. */
  endOnExpiry: boolean;
  /** Token requests answered per window (the vendor's 10 per 5 minutes; a refused connection never reached it); beyond it the session waits as for a 429. */
  maxRequests: number;
  windowMs: number;
  /** Longest `Retry-After` from the token service waited for; a longer one is cut to this (the session retries then). */
  maxRetryAfterMs: number;
  /** A token living less than this is renewed only when it is no longer handed out (as seldom as its life allows), not ahead of time. */
  shortLifetimeMs: number;
}

export const DEFAULT_TOKEN_POLICY: Readonly<TokenPolicy> = Object.freeze({
  renewShare: 0.1,
  renewMinMs: 5_000,
  renewMaxMs: 300_000,
  expiryMarginMs: 2_000,
  transientStatuses: Object.freeze([0, ...TRANSIENT_STATUSES]),
  backoffBaseMs: 1_000,
  backoffMaxMs: 30_000,
  jitter: "equal",
  endOnExpiry: false,
  maxRequests: 10,
  windowMs: 300_000,
  maxRetryAfterMs: 60_000,
  shortLifetimeMs: 30_000,
});

/** Milliseconds before expiry at which a token of this lifetime is renewed. */
export function renewLead(lifetimeMs: number, policy: Pick<TokenPolicy, "renewShare" | "renewMinMs" | "renewMaxMs"> = DEFAULT_TOKEN_POLICY): number {
  return Math.min(policy.renewMaxMs, Math.max(policy.renewMinMs, lifetimeMs * policy.renewShare));
}

/** A timer the tests drive by hand. */
export interface Timer {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set: (callback, delayMs) => setTimeout(callback, Math.min(delayMs, 2_147_483_647)),
  clear: (handle) => { clearTimeout(handle as ReturnType<typeof setTimeout>); },
};

export interface RenewalFailure {
  /** "token-service-busy" for a 429 or the request limit, else "renewal-failing". */
  reason: "token-service-busy" | "renewal-failing";
  message: string;
  /** Next attempt, epoch ms. */
  retryAt: number;
  failures: number;
}

export type TokenSessionState =
  | { status: "waiting" }
  | { status: "active"; expiresAt: number; failing?: RenewalFailure }
  | { status: "ended"; reason: string };

export interface TokenSessionOptions {
  /** Asks the token service for a token; the credentials (key, secret, refresh token) live in this closure. */
  grant: () => Promise<TokenGrant>;
  /** False when nothing can renew the token (a user token without a refresh token): the session ends at expiry. */
  renewable?: boolean;
  policy?: Partial<TokenPolicy>;
  now?: () => number;
  /** With a timer, renewal and retries happen on time; without, on the next `getToken` (scripts). */
  timer?: Timer;
  random?: () => number;
  /** The error callers get once the session has ended (default: the error that ended it). */
  endedError?: (reason: string, cause: unknown) => Error;
  /** Called after every change of state. */
  onChange?: () => void;
}

export interface TokenSession extends TokenProvider {
  /** Takes a token obtained elsewhere (a sign-in); starts a new session. */
  install(grant: TokenGrant): void;
  /** Renews now; false when it failed (the session may still be alive: see `state`). */
  renew(): Promise<boolean>;
  /** Ends the session: the token is dropped, timers stop, and a token request still in flight is ignored. */
  end(reason: string): void;
  state(): TokenSessionState;
  /** Token requests sent, answered or not. */
  readonly requests: number;
}

/** Why renewal fails now, how often it has in a row, and when it is tried again. */
interface Failure {
  error: unknown;
  busy: boolean;
  failures: number;
  retryAt: number;
}

interface Held {
  token: string;
  expiresAt: number;
  renewAt: number;
  /** Not handed out this close to expiry: the policy's margin, or a quarter of a short token's life. */
  marginMs: number;
  /** The service rejected it (401): never handed out again. */
  rejected: boolean;
}

export function createTokenSession(options: TokenSessionOptions): TokenSession {
  const policy: TokenPolicy = { ...DEFAULT_TOKEN_POLICY, ...options.policy };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const renewable = options.renewable ?? true;
  const timer = options.timer;
  const answered = new RequestWindow(policy);
  let held: Held | undefined;
  let ended: { reason: string; cause: unknown } | undefined;
  let failure: Failure | undefined;
  let inFlight: Promise<string> | undefined;
  let generation = 0;
  let timerHandle: unknown;
  let requests = 0;

  const changed = (): void => options.onChange?.();

  const endedError = (): Error => endedErrorOf(ended, options.endedError);
  const transientError = (): AuthError => renewalError(failure, now());
  const usable = (at: number): boolean => held !== undefined && !held.rejected && at < held.expiresAt - held.marginMs;

  function install(grant: TokenGrant): void {
    held = heldToken(grant, now(), policy);
    failure = undefined;
    ended = undefined;
    schedule();
    changed();
  }

  function end(reason: string, cause?: unknown): void {
    generation += 1;
    cancelTimer();
    if (held) held.token = "";
    held = undefined;
    failure = undefined;
    inFlight = undefined;
    ended = { reason, cause };
    changed();
  }

  function failed(error: unknown): Error {
    const status = statusOf(error);
    const at = now();
    const refused = status !== undefined && status >= 400 && status < 500 && !policy.transientStatuses.includes(status);
    // Only `invalid_grant` ends the sign-in; any other refusal (a proxy's 403, an HTML 404, invalid_client) keeps it while its token lives.
    if (refused && (codeOf(error) === "invalid_grant" || !held || held.rejected || at >= held.expiresAt)) {
      end(error instanceof Error ? error.message : "token request refused", error);
      return endedError();
    }
    const failures = (failure?.failures ?? 0) + 1;
    const asked = retryAfterOf(error);
    const retryAfterMs = asked === undefined ? undefined : Math.min(asked, policy.maxRetryAfterMs);
    const delay = retryAfterMs ?? backoffDelay(policy, failures, random);
    failure = { error, busy: status === 429, failures, retryAt: at + delay };
    if (held && at >= held.expiresAt && (policy.endOnExpiry || !renewable)) {
      end(`the session expired while renewal failed: ${error instanceof Error ? error.message : "unknown error"}`, error);
      return endedError();
    }
    schedule();
    changed();
    return transientError();
  }

  function refresh(): Promise<string> {
    if (inFlight) return inFlight;
    if (ended) return Promise.reject(endedError());
    const at = now();
    if (failure && at < failure.retryAt) return Promise.reject(transientError());
    const roomAt = answered.fullUntil(at);
    if (roomAt !== undefined) {
      const limited = new PricesError(`the client's limit of ${policy.maxRequests} token requests per ${policy.windowMs / 1000} s was reached`);
      failure = { error: limited, busy: true, failures: (failure?.failures ?? 0) + 1, retryAt: roomAt };
      schedule();
      changed();
      return Promise.reject(transientError());
    }
    requests += 1;
    const started = generation;
    const pending: Promise<string> = startGrant(options.grant).then(
      (granted) => {
        answered.record(at);
        if (generation !== started) throw endedError();
        if (inFlight === pending) inFlight = undefined;
        install(granted);
        return granted.accessToken;
      },
      (error: unknown) => {
        // Only an answer counts against the token service's limit: a refused connection never reached it.
        if (statusOf(error) !== 0) answered.record(at);
        if (generation !== started) throw endedError();
        if (inFlight === pending) inFlight = undefined;
        throw failed(error);
      },
    );
    inFlight = pending;
    return pending;
  }

  function cancelTimer(): void {
    if (timer && timerHandle !== undefined) timer.clear(timerHandle);
    timerHandle = undefined;
  }

  /** With a timer: the next renewal (or retry), or the end at expiry when nothing can renew. */
  function schedule(): void {
    if (!timer) return;
    cancelTimer();
    if (!held || ended) return;
    const expiryMatters = !renewable || policy.endOnExpiry;
    const at = timerAt(held, failure, renewable, expiryMatters);
    timerHandle = timer.set(() => {
      timerHandle = undefined;
      if (!held || ended) return;
      const firedAt = now();
      if (expiryMatters && firedAt >= held.expiresAt && !inFlight) {
        end(renewable ? `the session expired while renewal failed: ${describe(failure?.error)}` : "the session expired");
        return;
      }
      if (renewable) refresh().catch(() => undefined);
    }, Math.max(0, at - now()));
  }

  return {
    getToken(request?: TokenRequestOptions): Promise<string> {
      if (ended) return Promise.reject(endedError());
      const at = now();
      const rejected = request?.rejected;
      if (held && rejected !== undefined && rejected === held.token) held.rejected = true;
      const forced = request?.forceRefresh === true && rejected === undefined;
      if (held && !forced && usable(at)) {
        // Without a timer, a token due for renewal is renewed in the background while it is still handed out.
        if (!timer && renewable && at >= held.renewAt && !inFlight && (!failure || at >= failure.retryAt)) refresh().catch(() => undefined);
        return Promise.resolve(held.token);
      }
      if (held && !renewable) return Promise.reject(held.rejected ? new AuthError({ reason: "rejected", message: "token rejected and it cannot be renewed" }) : endedError());
      return refresh();
    },
    install,
    renew: () => refresh().then(() => true, () => false),
    end: (reason) => { end(reason); },
    state: () => stateOf(ended, held, failure, now()),
    get requests() {
      return requests;
    },
  };
}

/** The error callers get once the session has ended: the policy's, else the error that ended it. */
function endedErrorOf(ended: { reason: string; cause: unknown } | undefined, make: TokenSessionOptions["endedError"]): Error {
  const reason = ended?.reason ?? "not signed in";
  if (make) return make(reason, ended?.cause);
  return ended?.cause instanceof Error ? ended.cause : new AuthError({ reason: "not-signed-in", message: reason });
}

/** The grant's promise, a grant that throws at once included. */
function startGrant(grant: () => Promise<TokenGrant>): Promise<TokenGrant> {
  try {
    return grant();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** When the session's timer fires: the renewal (or retry after a failure), or the expiry when that comes first and matters. */
function timerAt(held: Held, failure: Failure | undefined, renewable: boolean, expiryMatters: boolean): number {
  const renewAt = failure ? failure.retryAt : held.renewAt;
  return renewable ? (expiryMatters ? Math.min(renewAt, held.expiresAt) : renewAt) : held.expiresAt;
}

/** What a caller gets while renewal fails for a transient reason: the cause, and when the session tries again. */
function renewalError(failure: Failure | undefined, at: number): AuthError {
  const retryAt = failure?.retryAt ?? at;
  const inSeconds = Math.max(1, Math.ceil((retryAt - at) / 1000));
  const cause = failure?.error;
  const said = cause instanceof Error ? cause.message : "unknown error";
  const busy = failure?.busy === true;
  return new AuthError({
    reason: busy ? "token-service-busy" : "renewal-failing",
    message: `${busy ? "token service busy" : "token renewal failing"} (${said}); retrying in ${inSeconds} s`,
    retryAt,
    cause,
    ...(typeof statusOf(cause) === "number" ? { status: statusOf(cause) } : {}),
  });
}

/** The token held from a grant received at `at`, with when it is renewed and how close to expiry it is still handed out. */
function heldToken(grant: TokenGrant, at: number, policy: TokenPolicy): Held {
  const lifetime = Math.max(0, grant.lifetimeMs);
  const expiresAt = at + lifetime;
  const marginMs = Math.min(policy.expiryMarginMs, lifetime / 4);
  // A short token is renewed when it stops being handed out, not ahead: renewing early would fetch nearly per request.
  const lead = lifetime < policy.shortLifetimeMs ? marginMs : Math.min(renewLead(lifetime, policy), lifetime / 2);
  return { token: grant.accessToken, expiresAt, renewAt: expiresAt - lead, marginMs, rejected: false };
}

/** The session as the pane shows it. */
function stateOf(ended: { reason: string } | undefined, held: Held | undefined, failure: Failure | undefined, at: number): TokenSessionState {
  if (ended) return { status: "ended", reason: ended.reason };
  if (!held) return { status: "waiting" };
  if (!failure) return { status: "active", expiresAt: held.expiresAt };
  const error = renewalError(failure, at);
  return { status: "active", expiresAt: held.expiresAt, failing: { reason: error.reason === "token-service-busy" ? "token-service-busy" : "renewal-failing", message: error.message, retryAt: failure.retryAt, failures: failure.failures } };
}

/** Token requests answered in the last window, against the vendor's limit. */
class RequestWindow {
  private readonly sentAt: number[] = [];

  constructor(private readonly policy: Pick<TokenPolicy, "maxRequests" | "windowMs">) {}

  record(at: number): void {
    this.sentAt.push(at);
  }

  /** When the window has room again, or undefined when it has room now. */
  fullUntil(at: number): number | undefined {
    while (this.sentAt.length > 0 && (this.sentAt[0] ?? 0) <= at - this.policy.windowMs) this.sentAt.shift();
    return this.sentAt.length >= this.policy.maxRequests ? (this.sentAt[0] ?? at) + this.policy.windowMs : undefined;
  }
}

function statusOf(error: unknown): number | undefined {
  const status = typeof error === "object" && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === "number" ? status : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

function retryAfterOf(error: unknown): number | undefined {
  const value = typeof error === "object" && error !== null ? (error as { retryAfterMs?: unknown }).retryAfterMs : undefined;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : "unknown error";
}
