import { createFaultInjector, parseFaultSpec } from "../../../src/sandbox/service/faults";
import { createRateLimiter } from "../../../src/sandbox/service/rate-limit";

describe("--faults", () => {
  it("reads kinds, parameters and rates", () => {
    const plan = parseFaultSpec("latency=300ms:0.2, latency=1.5s:0.1,500:0.05,503:0.05,429=2:0.05,drop:0.02,truncate:0.02,seed=7");
    expect(plan.latency).toEqual([{ ms: 300, rate: 0.2 }, { ms: 1500, rate: 0.1 }]);
    expect(plan.outcomes.map((o) => o.outcome)).toEqual(["500", "503", "429", "drop", "truncate"]);
    expect(plan.retryAfter).toBe(2);
    expect(plan.seed).toBe(7);
  });

  it.each(["latency:0.2", "500:2", "teapot:0.1", "500:0.6,503:0.6", "drop=3:0.1", "429=x:0.1", "seed=x"])("refuses %s", (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/--faults/);
  });

  it("meets each outcome near its rate, the same way for the same seed", () => {
    const plan = parseFaultSpec("500:0.1,drop:0.2,latency=5ms:0.5");
    const draw = (seed: number) => {
      const injector = createFaultInjector(plan, seed);
      return Array.from({ length: 10_000 }, () => injector.next());
    };
    const a = draw(3);
    expect(draw(3)).toEqual(a);
    expect(draw(4)).not.toEqual(a);
    const share = (test: (d: (typeof a)[number]) => boolean) => a.filter(test).length / a.length;
    expect(share((d) => d.outcome === "500")).toBeCloseTo(0.1, 1);
    expect(share((d) => d.outcome === "drop")).toBeCloseTo(0.2, 1);
    expect(share((d) => d.latencyMs === 5)).toBeCloseTo(0.5, 1);
  });
});

describe("--rate-limit", () => {
  it("allows N per caller per second and names the wait", () => {
    let now = 10_000;
    const limiter = createRateLimiter(2, () => now);
    expect(limiter?.take("a")).toBeUndefined();
    expect(limiter?.take("a")).toBeUndefined();
    expect(limiter?.take("a")).toBe(1);
    expect(limiter?.take("b")).toBeUndefined();
    now += 1000;
    expect(limiter?.take("a")).toBeUndefined();
  });

  it("is off at 0", () => {
    expect(createRateLimiter(0)).toBeUndefined();
  });
});
