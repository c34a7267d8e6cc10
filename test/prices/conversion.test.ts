/** Conversion in the client (convention 21) against the recording fake: keys, batching, and services that refuse or ignore it. */
import { ConversionError, InvalidKeyError, isConversionError } from "../../src/prices";
import { json, midOf } from "./fake-service";
import { flushAll, reasonOf, setup, valueOf } from "./setup";

const SYMBOLS = ["S001", "S002", "S003"];
const DATES = ["2024-03-01", "2024-03-04"];
const grid = (extra: { currency?: string; unit?: string } = {}) => SYMBOLS.flatMap((symbol) => DATES.map((date) => ({ symbol, date, ...extra })));

/** A fake answer that says it converted: the block names the target, the values are the model's times 2. */
function converting(call: { params: Record<string, string>; symbols: string[]; dates: string[] }): Response | undefined {
  const currency = call.params.targetCurrency;
  const unit = call.params.targetUnitOfMeasure;
  if (currency === undefined && unit === undefined) return undefined;
  return json({
    priceCalculationType: "None",
    instruments: call.symbols.map((symbol) => ({
      symbol,
      ...(currency ? { currencyId: currency } : { currencyId: "USD" }),
      ...(unit ? { unitOfMeasureId: unit } : { unitOfMeasureId: "MT" }),
      firstDate: "2020-01-01T16:30:00+00:00",
      lastDate: "2024-06-28T16:30:00+00:00",
      prices: call.dates.map((date) => {
        const mid = midOf(symbol, date) * 2;
        return { date, assessmentDate: `${date}T16:30:00+00:00`, revision: 0, low: mid - 1, mid, high: mid + 1 };
      }),
    })),
  });
}

describe("conversion keys and batching", () => {
  it("sends one request per conversion for the same grid, each naming its target, and keeps plain keys plain", async () => {
    const { client, manual, calls, service } = setup();
    service.script.push(converting, converting, converting);
    const keys = [...grid(), ...grid({ currency: "eur" }), ...grid({ currency: "EUR", unit: " lb " })];
    const results = await flushAll(manual, keys.map((key) => client.price(key)));
    expect(calls).toHaveLength(3);
    const targets = calls.map((call) => `${call.params.targetCurrency ?? "-"}/${call.params.targetUnitOfMeasure ?? "-"}`).sort();
    expect(targets).toEqual(["-/-", "EUR/-", "EUR/LB"]);
    for (const call of calls) expect([call.symbols.length, call.dates.length]).toEqual([3, 2]);
    keys.forEach((key, index) => {
      const factor = key.currency === undefined ? 1 : 2;
      expect(valueOf(results[index]).mid).toBe(midOf(key.symbol, key.date) * factor);
    });
  });

  it("never answers a converted key from an unconverted entry or the reverse", async () => {
    const { client, manual, calls, service } = setup();
    service.script.push(converting, converting);
    const key = { symbol: "S001", date: "2024-03-01" };
    const [plain] = await flushAll(manual, [client.price(key)]);
    const [converted] = await flushAll(manual, [client.price({ ...key, currency: "EUR" })]);
    expect(calls).toHaveLength(2);
    expect(valueOf(converted).mid).toBe(valueOf(plain).mid * 2);
    const again = await flushAll(manual, [client.price(key), client.price({ ...key, currency: "eur" }), client.price({ ...key, currency: "" })]);
    expect(calls).toHaveLength(2);
    expect(again.map((result) => valueOf(result).mid)).toEqual([valueOf(plain).mid, valueOf(converted).mid, valueOf(plain).mid]);
    expect(client.lineage({ ...key, currency: "EUR" })?.key).not.toBe(client.lineage(key)?.key);
  });

  it("refuses an id that cannot be one before sending anything", async () => {
    const { client, manual, calls } = setup();
    const [result] = await flushAll(manual, [client.price({ symbol: "S001", currency: "E,UR" })]);
    expect(reasonOf(result)).toBeInstanceOf(InvalidKeyError);
    expect(calls).toHaveLength(0);
  });
});

describe("a service without the conversion", () => {
  it("gives every key of a request the service refused with a 400 naming the parameters one clear message", async () => {
    const { client, manual, service } = setup();
    service.script.push((call) =>
      call.params.targetCurrency === undefined
        ? undefined
        : json({ type: "about:blank", title: "Bad Request", status: 400, detail: "Unknown parameter", errors: [{ parameter: "targetCurrency", message: "is not a known parameter" }] }, 400),
    );
    const keys = grid({ currency: "EUR" });
    const results = await flushAll(manual, [...keys.map((key) => client.price(key)), client.price({ symbol: "S001", date: "2024-03-01" })]);
    for (const result of results.slice(0, keys.length)) {
      const reason = reasonOf(result);
      expect(isConversionError(reason)).toBe(true);
      expect(reason.message).toBe("this service does not offer conversion to EUR");
    }
    expect(valueOf(results[keys.length]).mid).toBe(midOf("S001", "2024-03-01"));
  });

  it("keeps a 400 that names other parameters as it is", async () => {
    const { client, manual, service } = setup({ retry: { limit: 1 } });
    service.script.push(() => json({ type: "about:blank", title: "Bad Request", status: 400, detail: "Dates: bad", errors: [{ parameter: "Dates", message: "bad" }] }, 400));
    const [result] = await flushAll(manual, [client.price({ symbol: "S001", date: "2024-03-01", currency: "EUR" })]);
    expect(isConversionError(reasonOf(result))).toBe(false);
  });

  it("does not pass off unconverted values when a service ignores the parameters", async () => {
    const { client, manual } = setup();
    const [price, history] = await flushAll<unknown>(manual, [
      client.price({ symbol: "S001", date: "2024-03-01", unit: "LB" }),
      client.history({ symbol: "S002", fromDate: "2024-03-01", toDate: "2024-03-10", currency: "CNY" }),
    ]);
    expect(reasonOf(price)).toBeInstanceOf(ConversionError);
    expect(reasonOf(price).message).toBe("this service does not offer conversion to LB");
    expect(reasonOf(history).message).toBe("this service does not offer conversion to CNY");
  });

  it("reads an instrument's missing conversion in invalidInstruments as a conversion error naming it", async () => {
    const { client, manual, service } = setup();
    service.script.push(() =>
      json({ priceCalculationType: "None", instruments: [], invalidInstruments: [{ symbol: "S001", message: "Conversion from MT to BU is not available for this instrument" }] }),
    );
    const [result] = await flushAll(manual, [client.price({ symbol: "S001", date: "2024-03-01", unit: "bu" })]);
    const reason = reasonOf(result) as ConversionError;
    expect(reason).toBeInstanceOf(ConversionError);
    expect([reason.symbol, reason.target, reason.detail]).toEqual(["S001", "BU", "Conversion from MT to BU is not available for this instrument"]);
  });

  it("keeps an instrument's missing conversion for a while, as it keeps an unknown symbol: a recalculation asks nothing", async () => {
    const { client, manual, service } = setup();
    service.script.push(() =>
      json({ priceCalculationType: "None", instruments: [], invalidInstruments: [{ symbol: "S001", message: "Conversion from MT to BU is not available for this instrument" }] }),
    );
    const key = { symbol: "S001", date: "2024-03-01", unit: "bu" };
    await flushAll(manual, [client.price(key)]);
    const [again] = await flushAll(manual, [client.price(key)]);
    const reason = reasonOf(again) as ConversionError;
    expect(reason).toBeInstanceOf(ConversionError);
    expect([reason.symbol, reason.target, reason.detail]).toEqual(["S001", "BU", "Conversion from MT to BU is not available for this instrument"]);
    expect(service.calls).toHaveLength(1);
  });
});
