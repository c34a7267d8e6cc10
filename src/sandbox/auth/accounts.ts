/**
 * Who may sign in to the sandbox and what each may see (conventions 18 and 19). These are
 * published test credentials for a local service, not secrets.
 */
import { timingSafeEqual } from "node:crypto";

/** A set of instruments, written as symbol prefixes (compared without regard to letter case). */
export interface Entitlement {
  /** A short name for documentation and logs, e.g. `all` or `metals`. */
  readonly name: string;
  /** `""` admits every symbol; `MB-` admits `MB-AL-0004`. */
  readonly symbolPrefixes: readonly string[];
  /** Whether the caller may see the instrument with this symbol. */
  allows: (symbol: string) => boolean;
}

export function entitlement(name: string, symbolPrefixes: readonly string[]): Entitlement {
  const prefixes = symbolPrefixes.map((prefix) => prefix.toUpperCase());
  return {
    name,
    symbolPrefixes,
    allows: (symbol) => {
      const upper = symbol.toUpperCase();
      return prefixes.some((prefix) => upper.startsWith(prefix));
    },
  };
}

export const ALL_INSTRUMENTS = entitlement("all", [""]);
export const METALS_ONLY = entitlement("metals", ["MB-"]);

/**
 * The entitlement without the instruments of these symbol prefixes: what a caller sees after the vendor withdrew part
 * of it (the persistent cache must then serve none of them: issue 28).
 */
export function withdrawn(from: Entitlement, symbolPrefixes: readonly string[]): Entitlement {
  const gone = symbolPrefixes.map((prefix) => prefix.toUpperCase());
  return {
    name: `${from.name} without ${symbolPrefixes.join(", ")}`,
    symbolPrefixes: from.symbolPrefixes,
    allows: (symbol) => from.allows(symbol) && !gone.some((prefix) => symbol.toUpperCase().startsWith(prefix)),
  };
}

/** Withdrawn entitlements, by principal (a username, a client id or a service name): the symbol prefixes it no longer sees. */
export type Withdrawals = Readonly<Record<string, readonly string[]>>;

/** The accounts with those entitlements withdrawn. */
export function withWithdrawals(accounts: Accounts, withdrawals: Withdrawals): Accounts {
  const less = <T extends { readonly entitlement: Entitlement }>(item: T, id: string): T => {
    const prefixes = withdrawals[id];
    return prefixes === undefined || prefixes.length === 0 ? item : { ...item, entitlement: withdrawn(item.entitlement, prefixes) };
  };
  return {
    users: accounts.users.map((user) => less(user, user.username)),
    clients: accounts.clients.map((client) => less(client, client.clientId)),
    serviceKeys: accounts.serviceKeys.map((key) => less(key, key.serviceName)),
  };
}

/** A person who signs in through the add-in (authorization code + PKCE). */
export interface User {
  readonly username: string;
  readonly password: string;
  readonly displayName: string;
  readonly entitlement: Entitlement;
}

/** A script or test that authenticates with client credentials. */
export interface ConfidentialClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly entitlement: Entitlement;
}

/** A caller of the vendor's service-key grant. */
export interface ServiceKey {
  readonly serviceName: string;
  readonly serviceKey: string;
  readonly entitlement: Entitlement;
}

export interface Accounts {
  readonly users: readonly User[];
  readonly clients: readonly ConfidentialClient[];
  readonly serviceKeys: readonly ServiceKey[];
}

/** The add-in's public client: authorization code with PKCE and refresh tokens, no secret. */
export const ADDIN_CLIENT_ID = "prices-excel-addin";

export const SANDBOX_ACCOUNTS: Accounts = {
  users: [
    { username: "analyst", password: "analyst", displayName: "Sandbox Analyst", entitlement: ALL_INSTRUMENTS },
    { username: "trial", password: "trial", displayName: "Sandbox Trial User", entitlement: METALS_ONLY },
  ],
  clients: [
    { clientId: "sandbox-full", clientSecret: "sandbox-full-secret", entitlement: ALL_INSTRUMENTS },
    { clientId: "sandbox-trial", clientSecret: "sandbox-trial-secret", entitlement: METALS_ONLY },
  ],
  serviceKeys: [
    { serviceName: "sandbox-service", serviceKey: "sandbox-service-key", entitlement: ALL_INSTRUMENTS },
    { serviceName: "sandbox-trial-service", serviceKey: "sandbox-trial-service-key", entitlement: METALS_ONLY },
  ],
};

/**
 * Throws when two principals share an identifier: a token names its client in `client_id`, and
 * the verifier must map that back to exactly one of them.
 */
export function checkAccounts(accounts: Accounts): Accounts {
  const seen = new Set<string>([ADDIN_CLIENT_ID]);
  for (const id of [...accounts.clients.map((c) => c.clientId), ...accounts.serviceKeys.map((s) => s.serviceName)]) {
    if (seen.has(id)) throw new Error(`Client id or service name used twice: ${id}`);
    seen.add(id);
  }
  const users = new Set<string>();
  for (const { username } of accounts.users) {
    if (users.has(username)) throw new Error(`Username used twice: ${username}`);
    users.add(username);
  }
  return accounts;
}

/** Compares secrets in time that does not depend on where they differ. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function authenticateUser(accounts: Accounts, username: string, password: string): User | undefined {
  const user = accounts.users.find((candidate) => candidate.username === username);
  return user && secretsEqual(password, user.password) ? user : undefined;
}

export function authenticateServiceKey(accounts: Accounts, serviceName: string, serviceKey: string): ServiceKey | undefined {
  const service = accounts.serviceKeys.find((candidate) => candidate.serviceName === serviceName);
  return service && secretsEqual(serviceKey, service.serviceKey) ? service : undefined;
}
