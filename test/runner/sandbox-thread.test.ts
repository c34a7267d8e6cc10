/** The runner's own sandbox on its worker thread: its CA, then a service that answers, and a close that ends the thread, even mid-start. */
import { startSandboxThread, symbolHint } from "../../src/runner/sandbox-thread";
import { trustWith } from "../../src/runner/trust";
import { dispatcherFetch } from "../../src/prices/dispatcher-fetch";
import { scopeFor } from "../../src/api/vocabulary";

jest.setTimeout(120_000);

it("says its CA, listens with it, and stops when closed", async () => {
  const sandbox = startSandboxThread({ corsOrigins: [], today: "2025-06-30" });
  const trust = trustWith([await sandbox.ca]);
  try {
    const { apiUrl, issuer } = await sandbox.ready;
    expect(issuer.startsWith("https://localhost:")).toBe(true);
    const fetch = dispatcherFetch(await trust.dispatcher());
    // no token: the service's refusal, over TLS that trusts the CA the thread said
    const response = await fetch(`${apiUrl}/References?Types=Currency`);
    expect(response.status).toBe(401);
    await response.body?.cancel();
    await sandbox.close();
    await expect(fetch(`${apiUrl}/References?Types=Currency`)).rejects.toThrow();
  } finally {
    await trust.close();
    await sandbox.close();
  }
});

it("gives the runner's token with its readiness when asked for one: a real token its service takes, none when not asked", async () => {
  const sandbox = startSandboxThread({ corsOrigins: [], today: "2025-06-30", client: { clientId: "sandbox-full", clientSecret: "sandbox-full-secret", scope: scopeFor("sandbox") } });
  const unasked = startSandboxThread({ corsOrigins: [], today: "2025-06-30" });
  const trust = trustWith([await sandbox.ca]);
  try {
    const { apiUrl, token } = await sandbox.ready;
    expect(typeof token).toBe("string");
    const fetch = dispatcherFetch(await trust.dispatcher());
    const response = await fetch(`${apiUrl}/References?Types=Currency`, { headers: { authorization: `Bearer ${token ?? ""}` } });
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect((await unasked.ready).token).toBeUndefined();
  } finally {
    await trust.close();
    await Promise.all([sandbox.close(), unasked.close()]);
  }
});

it("answers for an instrument its book did not name as for one it did: the hint orders the building, never what is served", async () => {
  const client = { clientId: "sandbox-full", clientSecret: "sandbox-full-secret", scope: scopeFor("sandbox") };
  const hinted = startSandboxThread({ corsOrigins: [], today: "2025-06-30", client, symbols: ["MB-AL-0004", "Model", "2025-06-27"] });
  const plain = startSandboxThread({ corsOrigins: [], today: "2025-06-30", client });
  const trust = trustWith([await hinted.ca, await plain.ca]);
  try {
    const fetch = dispatcherFetch(await trust.dispatcher());
    const prices = async (ready: Promise<{ apiUrl: string; token?: string }>): Promise<unknown> => {
      const { apiUrl, token } = await ready;
      const response = await fetch(`${apiUrl}/Prices?Symbols=MB-AL-0004,AG-WHE-0058`, { headers: { authorization: `Bearer ${token ?? ""}` } });
      expect(response.status).toBe(200);
      return response.json();
    };
    const [fromHinted, fromPlain] = await Promise.all([prices(hinted.ready), prices(plain.ready)]);
    expect(JSON.stringify(fromHinted)).toContain("AG-WHE-0058");
    expect(fromHinted).toEqual(fromPlain);
  } finally {
    await trust.close();
    await Promise.all([hinted.close(), plain.close()]);
  }
});

it("hands the thread a book's short strings as its hint, none when the book holds too many to copy cheaply", () => {
  expect(symbolHint(["MB-AL-0004", "x".repeat(65), "Model"])).toEqual(["MB-AL-0004", "Model"]);
  expect(symbolHint(undefined)).toBeUndefined();
  expect(symbolHint(Array.from({ length: 20_001 }, (_, i) => `S${i}`))).toBeUndefined();
});

it("ends a sandbox closed while it is still starting, its start then failed", async () => {
  const sandbox = startSandboxThread({ corsOrigins: [] });
  await sandbox.close();
  await expect(sandbox.ready).rejects.toThrow("the runner's own sandbox stopped");
});
