/**
 * Why the relay exists, in a real browser: a page served by the relay reaches the API and the token path on its
 * own origin, while the same call straight to the sandbox (which does not allow the relay's origin by CORS) fails.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildRelay } from "../../src/relay/app";
import type { RunningSandbox } from "../../src/sandbox/server";
import { startTestSandbox } from "../helpers/sandbox";
import { launchChromium, type TestBrowser } from "../support/chromium";

jest.setTimeout(180_000);

let sandbox: RunningSandbox;
let relay: FastifyInstance;
let browser: TestBrowser;
let staticDir: string;
let origin: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  staticDir = await mkdtemp(path.join(tmpdir(), "relay-page-"));
  await writeFile(path.join(staticDir, "probe.html"), "<!doctype html><title>probe</title>");
  relay = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, staticDir, ca: sandbox.ca });
  await relay.listen({ port: 0, host: "127.0.0.1" });
  const address = relay.server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await relay?.close();
  await sandbox?.close();
  if (staticDir) await rm(staticDir, { recursive: true, force: true });
});

describe("a page served by the relay", () => {
  it("gets a token and prices through the relay, where a direct call to the service is refused by CORS", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${origin}/probe.html`);
    const outcome = await page.evaluate(async (direct: string) => {
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const tokenAnswer = await fetch("/connect/token", { method: "POST", headers: form, body: "grant_type=servicekey&serviceName=sandbox-service&serviceKey=sandbox-service-key&client_id=service_client" });
      const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
      const prices = await fetch("/physical/v2/Prices?Symbols=MB-AL-0004", { headers: { authorization: `Bearer ${token}` } });
      const body = (await prices.json()) as { instruments: { symbol: string }[] };
      let directError = "";
      try {
        await fetch(`${direct}/Prices?Symbols=MB-AL-0004`, { headers: { authorization: `Bearer ${token}` } });
      } catch (error) {
        directError = error instanceof Error ? error.name : String(error);
      }
      return { tokenStatus: tokenAnswer.status, pricesStatus: prices.status, symbol: body.instruments[0]?.symbol, directError };
    }, sandbox.apiUrl);
    await page.close();
    expect(outcome).toEqual({ tokenStatus: 200, pricesStatus: 200, symbol: "MB-AL-0004", directError: "TypeError" });
  });
});
