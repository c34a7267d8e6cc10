/**
 * The hostile 400s of issue 18 through the whole path: the headless runner in Chromium against `--api` of a
 * proxy in front of a sandbox whose real limit is 2,000 records. The proxy rewrites each refusal into the
 * hostile words. Where the words state the limit (with thousands separators, or "asked - 1"), every cell is
 * filled as against a plain sandbox, in a bounded number of requests; where they state none, or one below the
 * client's floor, the cells name the service's answer after one request.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { ensureCertificates } from "../../src/sandbox/auth/certs";
import type { RunningSandbox } from "../../src/sandbox/server";
import { evaluateInPage } from "../../src/runner/host-page";
import { sandboxToken } from "../support/service";
import { type LimitedPair, overrunningBook, startLimitedPair } from "./limited-pair";

jest.setTimeout(600_000);

type Hostile = (records: number) => string;

let stage: LimitedPair;
let proxy: Server;
let proxyUrl = "";
let hostile: Hostile = () => "";
let apiRequests = 0;

/** Forwards to the limited sandbox; a refusal there comes back in the hostile words, with the records it counted. */
async function startProxy(upstream: RunningSandbox): Promise<void> {
  const certificates = await ensureCertificates();
  const dispatcher = new Agent({ connect: { ca: upstream.ca } });
  const target = new URL(upstream.apiUrl);
  proxy = createServer({ key: certificates.key, cert: certificates.cert }, (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
        if (incoming.method !== "OPTIONS") apiRequests += 1;
        const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
        const answer = await request(`${target.origin}${incoming.url ?? "/"}`, { dispatcher, method: (incoming.method ?? "GET") as "GET", headers, body });
        let text = await answer.body.text();
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (typeof value === "string" && name !== "content-length" && name !== "transfer-encoding" && name !== "connection") answerHeaders[name] = value;
        if (answer.statusCode === 400 && text.includes("maxRecords")) {
          // The records the sandbox counted ("12345 price records" or "100 symbols x 50 dates").
          const counted = /(\d+) price records/.exec(text)?.[1] ?? /(\d+) symbols x (\d+) dates/.exec(text)?.slice(1).reduce((a, b) => String(Number(a) * Number(b)));
          text = JSON.stringify({ type: "about:blank", title: "Bad Request", status: 400, detail: hostile(Number(counted ?? "0")) });
        }
        outgoing.writeHead(answer.statusCode, answerHeaders);
        outgoing.end(text);
      })().catch(() => {
        outgoing.writeHead(502);
        outgoing.end();
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
}

beforeAll(async () => {
  stage = await startLimitedPair();
  await startProxy(stage.limited);
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await stage?.close();
});

const book = (): Record<string, unknown> => overrunningBook(stage.limited);

describe("hostile 400s through the runner", () => {
  let expected: Record<string, unknown>;

  beforeAll(async () => {
    const token = await sandboxToken(stage.plain, "sandbox-full", "sandbox-full-secret");
    expected = (await evaluateInPage(stage.browser.page, { cells: book() }, stage.plain.apiUrl, token)).cells;
  });

  it.each<[string, Hostile, number]>([
    ["'limit of 2.000'", (records) => `${records} price records is over the limit of 2.000 price records per response`, 12],
    ["'limit of 2 000'", (records) => `${records} price records is over the limit of 2 000 price records per response`, 12],
    ["'limit of (asked - 1)' every time", (records) => `over the limit of ${records - 1} price records per response (maxRecords)`, 16],
  ])("fills every cell after %s, in a bounded number of requests", async (_, words, bound) => {
    hostile = words;
    apiRequests = 0;
    const token = await sandboxToken(stage.limited, "sandbox-full", "sandbox-full-secret");
    const actual = await evaluateInPage(stage.browser.page, { cells: book() }, proxyUrl, token);
    expect(actual.cells).toEqual(expected);
    expect(apiRequests).toBeLessThanOrEqual(bound);
  });

  it.each<[string, Hostile, RegExp]>([
    ["'limit of 1' on any request", () => "over the limit of 1 price records per response (maxRecords)", /below the lowest the client accepts/],
    ["'the limit of 5 dates was not met'", () => "the limit of 5 dates was not met", /the limit of 5 dates was not met/],
    ["'over the limit of 3 records of type reference'", () => "over the limit of 3 records of type reference", /records of type reference/],
  ])("stops after %s and names the service's answer in the cells", async (_, words, named) => {
    hostile = words;
    apiRequests = 0;
    const token = await sandboxToken(stage.limited, "sandbox-full", "sandbox-full-secret");
    const actual = await evaluateInPage(stage.browser.page, { cells: book() }, proxyUrl, token);
    expect(String(actual.cells.B2)).toMatch(named);
    expect(String(actual.cells.BB1)).toMatch(named);
    // The grid's request and the history's (the history may be asked in parts, each refused once).
    expect(apiRequests).toBeLessThanOrEqual(6);
  });
});
