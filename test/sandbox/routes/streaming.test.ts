/** Large answers are streamed piece by piece (bounded memory); small ones are sent whole. */
import { Readable } from "node:stream";
import type { HistoryResponse } from "../../../src/api";
import { buildApp } from "../../../src/sandbox/app";
import { JsonWriter, Scratch } from "../../../src/sandbox/data/json";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import { answerFrom, full, type BodyWriter } from "../../../src/sandbox/service/answer";
import { stubTokenService } from "../service/fixtures";

function* numbers(out: JsonWriter, count: number): BodyWriter {
  out.raw("[");
  for (let i = 0; i < count; i++) {
    if (i > 0) out.raw(",");
    out.number(i * 1.25);
    if (full(out)) yield;
  }
  out.raw("]");
}

async function text(body: string | Buffer | Readable): Promise<string> {
  if (!(body instanceof Readable)) return body.toString();
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(piece as Buffer);
  return Buffer.concat(pieces).toString();
}

describe("answerFrom", () => {
  it("sends a body that ends within the bound whole, and a larger one as a stream of the same text", async () => {
    const small = answerFrom(new JsonWriter(1024, new Scratch()), numbers(new JsonWriter(), 0));
    expect(small).not.toBeInstanceOf(Readable);
    const whole = (() => {
      const out = new JsonWriter(1024, new Scratch());
      return answerFrom(out, numbers(out, 200_000), Number.POSITIVE_INFINITY);
    })();
    const out = new JsonWriter(1024, new Scratch());
    const streamed = answerFrom(out, numbers(out, 200_000), 100_000);
    expect(whole).not.toBeInstanceOf(Readable);
    expect(streamed).toBeInstanceOf(Readable);
    const expected = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => i * 1.25));
    expect(await text(whole)).toBe(expected);
    expect(await text(streamed)).toBe(expected);
  });

  it("throws what the body throws before its first pause", () => {
    function* failing(): BodyWriter {
      throw new Error("over a limit");
    }
    expect(() => answerFrom(new JsonWriter(), failing())).toThrow("over a limit");
  });
});

describe("a maximal history answer", () => {
  it("is streamed (no Content-Length) and holds every record", async () => {
    const data = generateDataSet({ today: "2025-06-30" });
    const app = await buildApp({ data, tokenService: stubTokenService, limits: { maxRecords: 100_000 } });
    const daily = data.instruments.filter((i) => i.record.frequency === "Daily" && i.record.launchDate < "2012-01-01").slice(0, 20);
    const response = await app.inject({ method: "GET", url: `/physical/v2/Prices/History?Symbols=${daily.map((i) => i.record.symbol).join(",")}&FromDate=2013-01-01&ToDate=2025-06-30`, headers: { authorization: "Bearer full" } });
    await app.close();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-length"]).toBeUndefined();
    expect(response.rawPayload.length).toBeGreaterThan(2 * 1024 * 1024);
    const body = JSON.parse(response.body) as HistoryResponse;
    const expected = daily.map((i) => Array.from(i.series.days).filter((d) => d >= 15706).length);
    expect(body.instruments.map((block) => block.prices.length)).toEqual(expected);
  });
});
