/**
 * "Today" as the service sees it, from the `Date` header of its answer (any answer carries one, a 401
 * included): which prices are final is the service's to say, not the machine's clock.
 */
import { todayIso } from "../api/dates";
import type { Trust } from "./trust";

/** The service's day (UTC), or undefined when it cannot be reached or sends no readable `Date`. */
export async function serviceDay(apiUrl: string, trust: Trust): Promise<string | undefined> {
  try {
    // undici (109 modules) loads here, when a request is made, not before the runner's first line
    const { fetch: undiciFetch } = await import("undici");
    // Without a token: the refusal costs the service nothing and still tells its time.
    const response = await undiciFetch(`${apiUrl.replace(/\/+$/, "")}/References?Types=Currency`, {
      signal: AbortSignal.timeout(10_000),
      dispatcher: await trust.dispatcher(),
    });
    await response.body?.cancel();
    const served = Date.parse(response.headers.get("date") ?? "");
    return Number.isNaN(served) ? undefined : todayIso(new Date(served));
  } catch {
    return undefined;
  }
}
