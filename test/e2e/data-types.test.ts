/**
 * Data types through the real host page, the built functions and the sandbox: declared by the host, a PRICES.ENTITY
 * cell and rich prices stay in their cells, `=A1.Mid` and arithmetic calculate, and the sheet's result names each
 * data-type cell's number format and card; not declared, every value is plain.
 */
import type { WorkbookResult } from "../../src/host/page-api";
import { type E2E, startE2E } from "./support";

jest.setTimeout(300_000);

const TODAY = "2024-06-28";
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E(TODAY);
});

afterAll(async () => {
  await e2e?.close();
});

function run(cells: Record<string, unknown>, declared: { entities: boolean; numbers: boolean }, valueMode: "plain" | "rich"): Promise<WorkbookResult> {
  return e2e.browser.page.evaluate(
    async ({ book, baseUrl, accessToken, today, dataTypes, mode }) => {
      const host = window.PricesHost;
      if (!host) throw new Error("PricesHost is not ready");
      await host.configure({ baseUrl, token: accessToken, today, dataTypes, valueMode: mode });
      return host.evaluateWorkbook([{ name: "Sheet1", book }]);
    },
    { book: { cells }, baseUrl: e2e.sandbox.apiUrl, accessToken: e2e.token, today: TODAY, dataTypes: declared, mode: valueMode },
  );
}

describe("data types in the headless host", () => {
  it("keeps entities and rich prices in their cells where the host declares them, and reads fields and sums", async () => {
    const symbol = e2e.sandbox.data.instruments.find((instrument) => instrument.series)!.record.symbol;
    const latest = ((await e2e.service("/Prices", { Symbols: symbol })) as { instruments: { prices: { mid: number }[] }[] }).instruments[0]!.prices[0]!;
    const cells = { A1: `=PRICES.ENTITY("${symbol}")`, B1: "=A1.Mid", C1: `=PRICES.MID("${symbol}")`, D1: "=C1*2", E1: "=C1.Currency", F1: "=SUM(C1,C1)" };

    const rich = (await run(cells, { entities: true, numbers: true }, "rich")).sheets[0]!;
    expect(rich.values.B1).toBe(latest.mid);
    expect(rich.values.C1).toBe(latest.mid);
    expect(rich.values.D1).toBe(latest.mid * 2);
    expect(rich.values.F1).toBe(latest.mid * 2);
    expect(typeof rich.values.E1).toBe("string");
    expect(String(rich.values.A1)).toMatch(new RegExp(`^${symbol} `));
    expect(Object.keys(rich.dataTypes).sort()).toEqual(["A1", "C1"]);
    expect(rich.dataTypes.C1).toMatchObject({ type: "Double", numberFormat: `#,##0.00##" ${String(rich.values.E1)}/${rich.dataTypes.C1!.card.sections[0]!.fields.find((field) => field.name === "Unit")!.value}"` });
    expect(rich.dataTypes.A1!.card.sections.map((section) => section.title)).toEqual(["Latest price", "Instrument"]);

    const plain = (await run(cells, { entities: false, numbers: false }, "rich")).sheets[0]!;
    expect(plain.dataTypes).toEqual({});
    expect(plain.values.C1).toBe(latest.mid);
    expect(plain.values.A1).toBe(rich.values.A1);
    expect(plain.values.B1).toMatchObject({ kind: "error", code: "#VALUE!" });
  });
});
