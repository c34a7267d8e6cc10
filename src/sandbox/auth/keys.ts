/**
 * The token service's RSA signing key. Persisted as a JWK beside the certificates so tokens stay
 * valid across sandbox restarts (a client's cached token keeps working); `null` keeps it in memory.
 */
import { createPrivateKey, createPublicKey, generateKeyPair } from "node:crypto";
import { dirname, resolve } from "node:path";
import { promisify } from "node:util";
import { calculateJwkThumbprint, type JWK } from "jose";
import { readTextIfPresent, withDirectoryLock, writeFileAtomic } from "./files";

const generateRsa = promisify(generateKeyPair);

export const SIGNING_KEY_FILE = "token-signing-key.json";
export const SIGNING_ALG = "RS256";

export interface SigningKey {
  readonly kid: string;
  /** Private JWK with `kid`, `alg` and `use`, as oidc-provider's `jwks` wants it. */
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

/** Loads the key from `file`, creating it when missing or unusable; `null` makes a fresh one in memory. */
export async function loadSigningKey(file: string | null): Promise<SigningKey> {
  if (file === null) return describe(await newPrivateJwk());
  const path = resolve(file);
  const existing = await parseKey(await readTextIfPresent(path));
  if (existing) return existing;
  return withDirectoryLock(dirname(path), "signing-key", async () => {
    const again = await parseKey(await readTextIfPresent(path));
    if (again) return again;
    const created = await describe(await newPrivateJwk());
    await writeFileAtomic(path, `${JSON.stringify(created.privateJwk, null, 2)}\n`, 0o600);
    return created;
  });
}

async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateRsa("rsa", { modulusLength: 2048 });
  return privateKey.export({ format: "jwk" });
}

async function parseKey(text: string | undefined): Promise<SigningKey | undefined> {
  if (text === undefined) return undefined;
  try {
    return await describe(JSON.parse(text) as JWK);
  } catch {
    return undefined;
  }
}

/** Completes a private JWK (throws when it is not an RSA key of 2048 bits or more). */
async function describe(jwk: JWK): Promise<SigningKey> {
  const privateKey = createPrivateKey({ key: jwk, format: "jwk" });
  if (privateKey.asymmetricKeyType !== "rsa" || (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new Error("The signing key must be an RSA key of at least 2048 bits");
  }
  const { kty, n, e } = createPublicKey(privateKey).export({ format: "jwk" }) as JWK;
  const kid = await calculateJwkThumbprint({ kty, n, e });
  const common = { kid, alg: SIGNING_ALG, use: "sig" };
  return {
    kid,
    privateJwk: { ...(privateKey.export({ format: "jwk" }) as JWK), ...common },
    publicJwk: { kty, n, e, ...common },
  };
}
