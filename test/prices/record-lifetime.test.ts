/** How long a cached price lives follows the record, not the UTC calendar. */
import { json } from "./fake-service";
import { flushAll, setup, valueOf } from "./setup";

const MINUTE = 60_000;

function answer(date: string, assessed: string) {
  const record = { date, assessmentDate: `${assessed}T16:30:00+00:00`, revision: 0, low: 99, mid: 100, high: 101 };
  return json({ instruments: [{ symbol: "S1", firstDate: "2020-01-01T16:30:00+00:00", lastDate: `${assessed}T16:30:00+00:00`, prices: [record] }], priceCalculationType: "None" });
}

describe("a cached price's lifetime", () => {
  it("is short for a value carried forward into yesterday, asked just after UTC midnight", async () => {
    const { client, manual, service, clock } = setup();
    clock.now = Date.parse("2024-06-28T00:05:00Z");
    service.script.push(answer("2024-06-27", "2024-06-26"));
    const key = { symbol: "S1", date: "2024-06-27" };
    valueOf((await flushAll(manual, [client.price(key)]))[0]);
    clock.now += 6 * MINUTE;
    // Yesterday's own assessment has been published meanwhile: the next ask must go to the service.
    const [again] = await flushAll(manual, [client.price(key)]);
    expect(service.calls).toHaveLength(2);
    expect(valueOf(again).assessmentDate).toBe("2024-06-27T16:30:00+00:00");
  });

  it("is long for an assessment of its own date", async () => {
    const { client, manual, service, clock } = setup();
    clock.now = Date.parse("2024-06-28T00:05:00Z");
    const key = { symbol: "S1", date: "2024-06-27" };
    valueOf((await flushAll(manual, [client.price(key)]))[0]);
    clock.now += 6 * 60 * MINUTE;
    valueOf((await flushAll(manual, [client.price(key)]))[0]);
    expect(service.calls).toHaveLength(1);
  });

  it("is long for a value carried into a date more than a week past (a weekend, say)", async () => {
    const { client, manual, service, clock } = setup();
    service.script.push(answer("2024-06-02", "2024-05-31"));
    const key = { symbol: "S1", date: "2024-06-02" };
    valueOf((await flushAll(manual, [client.price(key)]))[0]);
    clock.now += 6 * 60 * MINUTE;
    valueOf((await flushAll(manual, [client.price(key)]))[0]);
    expect(service.calls).toHaveLength(1);
  });
});
