/** An in-process app over the fixture data set, and a GET that returns status, headers and parsed body. */
import type { FastifyInstance } from "fastify";
import { buildApp, type AppOptions } from "../../../src/sandbox/app";
import { fixtureDataSet, stubTokenService } from "../service/fixtures";

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  text: string;
}

export async function fixtureApp(options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  return buildApp({ data: fixtureDataSet(), tokenService: stubTokenService, ...options });
}

export async function get(app: FastifyInstance, path: string, token = "full"): Promise<Answer> {
  const response = await app.inject({ method: "GET", url: `/physical/v2${path}`, headers: { authorization: `Bearer ${token}` } });
  const text = response.body;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text };
}

/** Narrowing helper: the test fails loudly when a value is missing. */
export function must<T>(value: T | undefined | null, what = "value"): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}`);
  return value;
}
