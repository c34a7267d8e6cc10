/** Entitlements as symbol prefixes, and the published sandbox accounts. */
import {
  ALL_INSTRUMENTS,
  METALS_ONLY,
  SANDBOX_ACCOUNTS,
  entitlement,
} from "../../../src/sandbox/auth";
import { authenticateServiceKey, authenticateUser, checkAccounts } from "../../../src/sandbox/auth/accounts";

describe("entitlements", () => {
  it("admits every symbol with the empty prefix", () => {
    for (const symbol of ["MB-AL-0004", "AG-WHE-0058", "FP-PLP-0034", ""]) expect(ALL_INSTRUMENTS.allows(symbol)).toBe(true);
  });

  it("admits metals only, without regard to letter case", () => {
    expect(METALS_ONLY.allows("MB-AL-0004")).toBe(true);
    expect(METALS_ONLY.allows("mb-al-0004")).toBe(true);
    expect(METALS_ONLY.allows("AG-WHE-0058")).toBe(false);
    expect(METALS_ONLY.allows("XMB-AL-0004")).toBe(false);
    expect(METALS_ONLY.allows("MB")).toBe(false);
  });

  it("admits a symbol matching any of several prefixes", () => {
    const some = entitlement("some", ["MB-", "fp-"]);
    expect(["MB-CU-0001", "FP-PLP-0034", "AG-WHE-0058"].map(some.allows)).toEqual([true, true, false]);
  });

  it("admits nothing with no prefix", () => {
    expect(entitlement("none", []).allows("MB-AL-0004")).toBe(false);
  });
});

describe("sandbox accounts", () => {
  it("signs in the published users and only with their password", () => {
    expect(authenticateUser(SANDBOX_ACCOUNTS, "analyst", "analyst")?.entitlement).toBe(ALL_INSTRUMENTS);
    expect(authenticateUser(SANDBOX_ACCOUNTS, "trial", "trial")?.entitlement).toBe(METALS_ONLY);
    expect(authenticateUser(SANDBOX_ACCOUNTS, "trial", "analyst")).toBeUndefined();
    expect(authenticateUser(SANDBOX_ACCOUNTS, "Analyst", "analyst")).toBeUndefined();
    expect(authenticateUser(SANDBOX_ACCOUNTS, "nobody", "")).toBeUndefined();
  });

  it("gives clients and service keys the documented entitlements", () => {
    const byClient = Object.fromEntries(SANDBOX_ACCOUNTS.clients.map((c) => [c.clientId, c.entitlement.name]));
    expect(byClient).toEqual({ "sandbox-full": "all", "sandbox-trial": "metals" });
    expect(authenticateServiceKey(SANDBOX_ACCOUNTS, "sandbox-service", "sandbox-service-key")?.entitlement).toBe(ALL_INSTRUMENTS);
    expect(authenticateServiceKey(SANDBOX_ACCOUNTS, "sandbox-trial-service", "sandbox-trial-service-key")?.entitlement).toBe(METALS_ONLY);
    expect(authenticateServiceKey(SANDBOX_ACCOUNTS, "sandbox-service", "sandbox-trial-service-key")).toBeUndefined();
  });

  it("refuses accounts where a client id and a service name collide", () => {
    expect(checkAccounts(SANDBOX_ACCOUNTS)).toBe(SANDBOX_ACCOUNTS);
    const clash = {
      ...SANDBOX_ACCOUNTS,
      serviceKeys: [{ serviceName: "sandbox-full", serviceKey: "k", entitlement: ALL_INSTRUMENTS }],
    };
    expect(() => checkAccounts(clash)).toThrow(/sandbox-full/);
  });
});
