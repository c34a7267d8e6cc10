/**
 * A minimal HTTPS fastify app that mounts only the token service, on a random port, and the
 * undici client that trusts the sandbox CA; plus PKCE and a cookie jar for browser-like flows.
 */
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { Agent, fetch, type RequestInit, type Response } from "undici";
import {
  createTokenService,
  ensureCertificates,
  type TokenService,
  type TokenServiceOptions,
} from "../../../src/sandbox/auth";

export interface AuthServer {
  origin: string;
  issuer: string;
  apiUrl: string;
  tokenService: TokenService;
  app: FastifyInstance;
  /** Fetch a path (or absolute URL) of this server, trusting its CA, never following redirects. */
  request(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  /** POST an `application/x-www-form-urlencoded` body. */
  postForm(pathOrUrl: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startAuthServer(options: Partial<TokenServiceOptions> = {}): Promise<AuthServer> {
  const certificates = await ensureCertificates();
  let port = 0;
  const tokenService = await createTokenService({
    origin: () => `https://localhost:${port}`,
    keysDir: null,
    ...options,
  });
  const app = Fastify({ https: { key: certificates.key, cert: certificates.cert } });
  await tokenService.register(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as AddressInfo).port;
  const origin = `https://localhost:${port}`;
  const dispatcher = new Agent({ connect: { ca: certificates.ca } });
  const request = (pathOrUrl: string, init: RequestInit = {}) =>
    fetch(new URL(pathOrUrl, origin), { redirect: "manual", ...init, dispatcher });
  return {
    origin,
    issuer: tokenService.issuer,
    apiUrl: `${origin}/physical/v2`,
    tokenService,
    app,
    request,
    postForm: (pathOrUrl, form, headers = {}) =>
      request(pathOrUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(form).toString(),
      }),
    close: async () => {
      await app.close();
      await dispatcher.close();
    },
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Remembers cookies by name, as a browser would for one site (paths are all under /auth). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): Record<string, string> {
    if (this.#cookies.size === 0) return {};
    return { cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
  }
}

export function basicAuth(clientId: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` };
}
