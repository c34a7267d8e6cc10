import { ServiceReach, unreachableLine } from "../../src/taskpane/service-reach";

const BASE = "https://api.example/physical/v2";

/** A fetch that answers from a list of outcomes, one per call: a status, or a thrown error. */
function scripted(outcomes: (number | Error)[]): typeof fetch {
  return async () => {
    const next = outcomes.shift();
    if (next === undefined) throw new Error("no more outcomes");
    if (next instanceof Error) throw next;
    return new Response("{}", { status: next });
  };
}

describe("ServiceReach", () => {
  it("is unreachable from the first failed attempt, says since when and the last contact, and reachable again on the next answer", async () => {
    let clock = 1_000;
    const reach = new ServiceReach(() => clock);
    const seen: boolean[] = [];
    reach.subscribe((state) => seen.push(state.reachable));
    const fetchFn = reach.wrap(scripted([200, new TypeError("Failed to fetch"), new TypeError("Failed to fetch"), 404]), BASE);
    await fetchFn(`${BASE}/Prices`);
    expect(reach.state()).toEqual({ reachable: true, lastContact: 1_000 });
    clock = 5_000;
    await expect(fetchFn(`${BASE}/Prices`)).rejects.toThrow("Failed to fetch");
    clock = 9_000;
    await expect(fetchFn(`${BASE}/Prices`)).rejects.toThrow("Failed to fetch");
    expect(reach.state()).toEqual({ reachable: false, since: 5_000, lastContact: 1_000, cause: "no connection" });
    expect(unreachableLine(reach.state())).toContain("cannot be reached (no connection) since");
    expect(unreachableLine(reach.state())).toContain("last successful contact");
    // a 404 is an answer: the service is there
    await fetchFn(`${BASE}/Prices`);
    expect(reach.state().reachable).toBe(true);
    expect(unreachableLine(reach.state())).toBeUndefined();
    expect(seen).toEqual([false, true]);
  });

  it("counts a gateway's 502 and a timeout as unreachable, a cancelled request and other origins as nothing", async () => {
    const reach = new ServiceReach(() => 0);
    const abort = Object.assign(new Error("aborted"), { name: "AbortError" });
    const timeout = Object.assign(new Error("timed out"), { name: "TimeoutError" });
    const fetchFn = reach.wrap(scripted([abort, new TypeError("x"), 502, timeout]), BASE);
    await expect(fetchFn(`${BASE}/Prices`)).rejects.toThrow("aborted");
    expect(reach.state().reachable).toBe(true);
    await expect(fetchFn("https://auth.example/token")).rejects.toThrow("x");
    expect(reach.state().reachable).toBe(true);
    expect((await fetchFn(`${BASE}/Prices`)).status).toBe(502);
    expect(reach.state()).toMatchObject({ reachable: false, cause: "the gateway answered 502" });
    await expect(fetchFn(`${BASE}/Prices`)).rejects.toThrow("timed out");
    expect(reach.state()).toMatchObject({ reachable: false, cause: "no answer in time" });
    expect(unreachableLine(reach.state())).toContain("no successful contact yet");
  });
});
