import { hashInts, hashString, Random } from "../../../src/sandbox/data/random";

describe("Random", () => {
  it("repeats its sequence for a seed and differs for another", () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const seqA = Array.from({ length: 20 }, () => a.uint32());
    expect(Array.from({ length: 20 }, () => b.uint32())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.uint32())).not.toEqual(seqA);
  });

  it("keeps int, float, pick and next in range", () => {
    const rng = new Random(7);
    for (let i = 0; i < 2000; i++) {
      const n = rng.int(3, 12);
      expect(Number.isInteger(n) && n >= 3 && n <= 12).toBe(true);
      const x = rng.next();
      expect(x >= 0 && x < 1).toBe(true);
      expect(["a", "b"]).toContain(rng.pick(["a", "b"]));
    }
  });

  it("draws normals with mean near 0 and variance near 1", () => {
    const rng = new Random(1);
    const values = Array.from({ length: 20000 }, () => rng.normal());
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(variance - 1)).toBeLessThan(0.05);
  });

  it("forks independent generators by label, deterministically", () => {
    expect(new Random(5).fork("walk").uint32()).toBe(new Random(5).fork("walk").uint32());
    expect(new Random(5).fork("walk").uint32()).not.toBe(new Random(5).fork("attributes").uint32());
  });

  it("hashes strings and integers stably", () => {
    expect(hashString("MB-AL-0004", 1)).toBe(hashString("MB-AL-0004", 1));
    expect(hashString("MB-AL-0004", 1)).not.toBe(hashString("MB-AL-0004", 2));
    expect(hashInts(1, 2, 3)).not.toBe(hashInts(1, 2, 4));
  });
});
