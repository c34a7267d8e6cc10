/**
 * What the Node host's log says of a failed request: the connection's own words, and never the request's own error,
 * whose words may quote a header (undici refuses a token with a line break by quoting the whole value).
 */
import { fetch as undiciFetch } from "undici";
import { transportCause } from "../../src/runner/node-host";
import { closedPort } from "../e2e/support";

async function failureOf(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  try {
    await undiciFetch(url, { headers });
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${url} to fail`);
}

describe("transportCause", () => {
  it("gives the connection's words for a port nothing listens on", async () => {
    const port = await closedPort();
    expect(transportCause(await failureOf(`http://127.0.0.1:${port}/physical/v2/Prices`))).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it("says nothing of a request refused before any connection, whose words quote the header", async () => {
    const port = await closedPort();
    const refused = await failureOf(`http://127.0.0.1:${port}/physical/v2/Prices`, { Authorization: "Bearer secret\nrest-of-token" });
    expect(String((refused as Error).message)).toContain("secret");
    expect(transportCause(refused)).toBeUndefined();
  });
});
