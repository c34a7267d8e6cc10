/** The runner's own sandbox on its worker thread: its CA, then a service that answers, and a close that ends the thread, even mid-start. */
import { startSandboxThread } from "../../src/runner/sandbox-thread";
import { trustWith } from "../../src/runner/trust";
import { dispatcherFetch } from "../../src/prices/dispatcher-fetch";

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

it("ends a sandbox closed while it is still starting, its start then failed", async () => {
  const sandbox = startSandboxThread({ corsOrigins: [] });
  await sandbox.close();
  await expect(sandbox.ready).rejects.toThrow("the runner's own sandbox stopped");
});
