/**
 * The sandbox as a drop-in for the real service: requests shaped exactly as public client scripts send them, with
 * only the host of their URLs changed (and the local CA trusted), over HTTPS.
 */
import { request as httpsRequest } from "node:https";
import type { HistoryResponse, InstrumentsResponse, PricesResponse } from "../../src/api";
import type { RunningSandbox } from "../../src/sandbox/server";
import { startTestSandbox } from "../helpers/sandbox";

jest.setTimeout(180_000);

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

interface Answer {
  status: number;
  text: string;
}

/** Any method with any body (a GET with a form body included, which fetch refuses to send). */
function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(url, { method, ca: sandbox.ca, headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function serviceKeyToken(): Promise<{ access_token: string; expires_in: number; token_type: string }> {
  const answer = await send("POST", `${sandbox.origin}/connect/token`, FORM, "grant_type=servicekey&serviceName=sandbox-service&serviceKey=sandbox-service-key&client_id=service_client");
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text) as { access_token: string; expires_in: number; token_type: string };
}

describe("a public client script with only the host changed", () => {
  it("gets a service-key token at /connect/token with client_id=service_client, living 7200 s", async () => {
    const token = await serviceKeyToken();
    expect(token).toMatchObject({ token_type: "Bearer", expires_in: 7200 });
  });

  it("gets a client-credentials token at /connect/token too", async () => {
    const basic = Buffer.from("sandbox-full:sandbox-full-secret").toString("base64");
    const answer = await send("POST", `${sandbox.origin}/connect/token`, { ...FORM, authorization: `Basic ${basic}` }, "grant_type=client_credentials&scope=sandbox.physicalprices.api");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
  });

  it("finds the API scope in discovery's scopes_supported", async () => {
    const answer = await send("GET", `${sandbox.issuer}/.well-known/openid-configuration`, {});
    expect((JSON.parse(answer.text) as { scopes_supported: string[] }).scopes_supported).toEqual(expect.arrayContaining(["openid", "sandbox.physicalprices.api"]));
  });

  it("asks with a GET and a form body, /Physical/v2 paths, all visible symbols in one list, non-padded dates and the scripts' Fields", async () => {
    const { access_token: token } = await serviceKeyToken();
    const auth = { authorization: `Bearer ${token}` };
    const base = sandbox.apiUrl.replace("/physical/v2", "/Physical/v2");
    const listed = await send("GET", `${base}/Instruments`, auth);
    expect(listed.status).toBe(200);
    const symbols = (JSON.parse(listed.text) as InstrumentsResponse).instruments.map((i) => i.symbol);
    expect(symbols.length).toBeGreaterThan(300);
    const form = `Symbols=${symbols.join(",")}&FromDate=2025-6-2&ToDate=2025-6-6&Fields=mid,low,high,currency,assessmentDate,date`;
    const history = await send("GET", `${base}/Prices/History`, { ...auth, ...FORM }, form);
    expect(history.status).toBe(200);
    const body = JSON.parse(history.text) as HistoryResponse;
    expect(body.instruments.map((block) => block.symbol)).toEqual(symbols);
    expect(body.instruments.some((block) => block.prices.length > 0 && block.prices[0]?.mid !== undefined)).toBe(true);
    const latest = await send("GET", `${base}/Prices`, { ...auth, ...FORM }, `Symbols=${symbols.join(",")}&Fields=mid,low,high,currency,assessmentDate,date`);
    expect(latest.status).toBe(200);
    expect((JSON.parse(latest.text) as PricesResponse).instruments).toHaveLength(symbols.length);
  });
});
