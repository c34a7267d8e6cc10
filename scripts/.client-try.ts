import { Agent, fetch as undiciFetch } from "undici";
import { startSandbox } from "../src/sandbox/server";
import { clientCredentialsTokenProvider, createPricesClient, serviceKeyTokenProvider } from "../src/prices";
async function main() {
  const sb = await startSandbox({ port: 0, quiet: true });
  const agent = new Agent({ connect: { ca: sb.ca } });
  const f = ((input: string, init?: object) => undiciFetch(input, { ...(init ?? {}), dispatcher: agent } as never)) as unknown as typeof fetch;
  const tp = clientCredentialsTokenProvider({ tokenUrl: `${sb.issuer}/token`, clientId: "sandbox-full", clientSecret: "sandbox-full-secret", scope: "sandbox.physicalprices.api", resource: sb.apiUrl, fetch: f });
  try { console.log("token", (await tp.getToken()).slice(0, 20)); } catch (e) { console.log("token error", e); }
  const sk = serviceKeyTokenProvider({ tokenUrl: `${sb.issuer}/token`, serviceName: "sandbox-service", serviceKey: "sandbox-service-key", fetch: f });
  try { console.log("sk token", (await sk.getToken()).slice(0, 20)); } catch (e) { console.log("sk error", e); }
  const client = createPricesClient({ baseUrl: sb.apiUrl, tokenProvider: tp, fetch: f });
  const syms = sb.data.instruments.slice(0, 3).map((i) => i.record.symbol);
  const r = await Promise.allSettled([
    client.price({ symbol: syms[0]!, date: "2024-03-01" }),
    client.price({ symbol: syms[1]! }),
    client.price({ symbol: "NOPE", date: "2024-03-01" }),
    client.price({ symbol: syms[1]!, date: "2000-03-01" }),
    client.history({ symbol: syms[0]!, fromDate: "2024-03-01", toDate: "2024-03-10", calendarType: "Weekdays", carryForward: true, fields: ["pricingRationale"] }),
    client.instrument(syms[2]!, ["Currency", "forecastTypeIds"]),
    client.instruments(),
    client.references("Currency"),
    client.price({ symbol: syms[0]!, date: "2024-03-01", calculationType: "MonthlyAverage", fields: ["assessmentPeriod"] }),
  ]);
  for (const x of r) console.log(x.status, JSON.stringify(x.status === "fulfilled" ? x.value : String(x.reason)).slice(0, 300));
  console.log(client.stats());
  await sb.close(); await agent.close();
}
main().catch((e) => { console.error("FAIL", e); process.exit(1); });
