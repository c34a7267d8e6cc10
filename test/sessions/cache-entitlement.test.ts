/**
 * The entitlement gate's parts against the real sandbox (issue 28): the token's signature verified against its
 * issuer's published keys, the service's instrument list with an entitlement withdrawn, and the rule for a session the
 * service has not confirmed (unreachable): nothing loaded is served, a last known value only where chosen, unconfirmed.
 */
import { caFetch } from "../helpers/sandbox";
import { sandboxToken } from "../support/service";
import type { RunningSandbox } from "../../src/sandbox/server";
import { entitledSymbols, verifiedSubject } from "../../src/prices/persistent/entitlement";
import { openPersistentCache } from "../../src/prices/persistent";
import { NetworkError } from "../../src/prices/errors";

jest.setTimeout(120_000);

let sandbox: RunningSandbox;
let withdrawn: RunningSandbox;

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  [sandbox, withdrawn] = await Promise.all([
    startSandbox({ port: 0, today: "2025-06-30", quiet: true }),
    startSandbox({ port: 0, today: "2025-06-30", quiet: true, withdrawn: { "sandbox-full": ["AG-"] } }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), withdrawn?.close()]);
});

describe("the token's signature", () => {
  it("verifies a token the issuer signed, naming its subject", async () => {
    const token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
    await expect(verifiedSubject(token, sandbox.apiUrl, caFetch(sandbox.ca))).resolves.toEqual({ kind: "verified", subject: "sandbox-full" });
  });

  it("refuses the full-access client's payload under another token's signature", async () => {
    const full = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
    const trial = await sandboxToken(sandbox, "sandbox-trial", "sandbox-trial-secret");
    const [header, , signature] = trial.split(".");
    const forged = `${header ?? ""}.${full.split(".")[1] ?? ""}.${signature ?? ""}`;
    await expect(verifiedSubject(forged, sandbox.apiUrl, caFetch(sandbox.ca))).resolves.toMatchObject({ kind: "invalid" });
  });

  it("refuses a token whose issuer is not on the service's origin (it could bring keys of its own)", async () => {
    const other = await sandboxToken(withdrawn, "sandbox-full", "sandbox-full-secret");
    await expect(verifiedSubject(other, sandbox.apiUrl, caFetch(withdrawn.ca))).resolves.toMatchObject({ kind: "invalid" });
  });
});

describe("the service's instrument list", () => {
  it("names the instruments of the caller's entitlement, and no withdrawn one", async () => {
    const before = await entitledSymbols(sandbox.apiUrl, await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret"), caFetch(sandbox.ca));
    const after = await entitledSymbols(withdrawn.apiUrl, await sandboxToken(withdrawn, "sandbox-full", "sandbox-full-secret"), caFetch(withdrawn.ca));
    if (before.kind !== "entitled" || after.kind !== "entitled") throw new Error("not listed");
    const ag = [...before.symbols].filter((symbol) => symbol.startsWith("AG-"));
    expect(ag.length).toBeGreaterThan(0);
    expect([...after.symbols].filter((symbol) => symbol.startsWith("AG-"))).toEqual([]);
    expect(after.symbols.size).toBe(before.symbols.size - ag.length);
  });

  it("is refused for a token the service does not accept", async () => {
    await expect(entitledSymbols(sandbox.apiUrl, "not-a-token", caFetch(sandbox.ca))).resolves.toEqual({ kind: "refused", status: 401 });
  });
});

describe("a session the service has not confirmed", () => {
  const record = { date: "2025-05-14", assessmentDate: "2025-05-14T16:00:00Z", revision: 0, low: 1, mid: 2, high: 3 };
  const id = "p|MB-AL-0001|2025-05-14|None|";

  async function reopened(lastKnown: boolean) {
    let lines: readonly string[] = [];
    const backend = { load: () => Promise.resolve({ lines, intact: false }), save: (_p: unknown, saved: readonly string[]) => Promise.resolve(void (lines = saved)), clear: () => Promise.resolve() };
    const options = { baseUrl: "https://prices.example.com", subject: "someone", backend, today: () => "2025-06-30", scheduleFlush: () => undefined };
    const first = await openPersistentCache(options);
    first.set(id, { kind: "price", value: record, storedAt: 1_000, expiresAt: 2_000, bytes: 64 });
    await first.flush();
    const confirmed = await openPersistentCache(options);
    const unconfirmed = await openPersistentCache({ ...options, unconfirmed: true, lastKnownWhenUnreachable: () => lastKnown });
    return { confirmed, unconfirmed };
  }

  it("serves nothing it loaded, even a final record", async () => {
    const { confirmed, unconfirmed } = await reopened(true);
    expect(confirmed.get(id)?.value).toEqual(record);
    expect(unconfirmed.get(id)).toBeUndefined();
  });

  it("answers an unreachable service with the last known value only where chosen, marked unconfirmed", async () => {
    const offline = new NetworkError({ method: "GET", url: "https://prices.example.com/Prices", reason: "Failed to fetch" });
    const chosen = (await reopened(true)).unconfirmed;
    expect(chosen.failed(id, offline)?.value).toEqual(record);
    expect(chosen.describe(id)).toMatch(/^last known value, unconfirmed, fetched /);
    expect(chosen.offline()).toMatchObject({ values: 1, unconfirmed: true });
    expect((await reopened(false)).unconfirmed.failed(id, offline)).toBeUndefined();
  });

  it("serves a final record once the service lists its instrument, and drops one it does not list", async () => {
    const listed = (await reopened(false)).unconfirmed;
    expect(listed.confirm(new Set(["MB-AL-0001"]))).toBe(0);
    expect(listed.get(id)?.value).toEqual(record);
    const unlisted = (await reopened(false)).unconfirmed;
    expect(unlisted.confirm(new Set(["MB-CU-0001"]))).toBe(1);
    expect(unlisted.get(id)).toBeUndefined();
    expect(unlisted.lines()).toEqual([]);
  });
});
