/**
 * Dates as a finance team's workbooks hold them: the 1904 date system in and out, timestamps without an
 * offset read as UTC whatever the machine's zone, and a blank cell inside a range of dates left blank.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import * as F from "../../src/functions/functions";
import { dateTimeToSerial, isoDateToSerial, serialToIsoDate } from "../../src/formula/excel-dates";
import { followWorkbookDateSystem } from "../../src/functions/workbook-date-system";
import { ASSESSED, SYMBOLS, expectedMid, fakeClient, installCustomFunctionsGlobal } from "./support";

const AL = SYMBOLS.aluminium;
const OMITTED = null as never;

beforeAll(() => installCustomFunctionsGlobal());
afterAll(async () => {
  await globalThis.PricesAddin!.configure({ client: fakeClient().client, recalculate: false, dateSystem: "1900" });
});

describe("the 1904 date system", () => {
  it("counts serial 0 as 1904-01-01, 1462 days after the 1900 system, with no fictitious 29 February", () => {
    expect(serialToIsoDate(0, "1904")).toBe("1904-01-01");
    expect(serialToIsoDate(-1, "1904")).toBeUndefined();
    expect(isoDateToSerial("2024-03-01", "1904")).toBe(isoDateToSerial("2024-03-01") - 1462);
    expect(serialToIsoDate(isoDateToSerial("2024-03-01", "1904"), "1904")).toBe("2024-03-01");
    expect(dateTimeToSerial("2024-03-01T18:00:00Z", "1904")).toBe(isoDateToSerial("2024-03-01", "1904") + 0.75);
  });

  it("reads date arguments and writes date results in the workbook's system", async () => {
    const fake = fakeClient();
    await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, dateSystem: "1904" });
    const day = ASSESSED[10]!;
    const serial1904 = isoDateToSerial(day, "1904");
    expect(await F.mid([[AL]], [[serial1904]])).toEqual([[expectedMid(AL, day)]]);
    expect(await F.price([[AL]], [[serial1904]], F.PriceField.date)).toEqual([[serial1904]]);
    const table = await F.history(AL, serial1904, serial1904, OMITTED, F.Headers.None);
    expect(table[0]?.[0]).toBe(serial1904);
    expect(fake.calls.every((call) => JSON.stringify(call.args).includes(day))).toBe(true);
  });

  it("is followed when the workbook's setting changes, with a recalculation", async () => {
    let system: "1900" | "1904" = "1904";
    const recalculations: string[] = [];
    const target = {
      dateSystem: "1900" as "1900" | "1904",
      setDateSystem(next: "1900" | "1904") {
        this.dateSystem = next;
      },
      recalculate: async () => {
        recalculations.push(target.dateSystem);
      },
    };
    await followWorkbookDateSystem(target, async () => system);
    expect(target.dateSystem).toBe("1904");
    expect(recalculations).toEqual(["1904"]);
    system = "1900";
    await followWorkbookDateSystem(target, async () => system);
    expect(recalculations).toEqual(["1904", "1900"]);
  });
});

describe("a timestamp without a UTC offset", () => {
  /** The serials of `texts` computed in a Node process whose zone is New York (Jest's own zone cannot be changed). */
  function serialsInNewYork(texts: string[]): { offset: number; serials: (number | undefined)[] } {
    const root = join(__dirname, "../..");
    const code = `import { dateTimeToSerial } from ${JSON.stringify(join(root, "src/formula/excel-dates"))};
      console.log(JSON.stringify({ offset: new Date(2024, 0, 1).getTimezoneOffset(), serials: ${JSON.stringify(texts)}.map((t) => dateTimeToSerial(t)) }));`;
    const out = execFileSync(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "-e", code], { env: { ...process.env, TZ: "America/New_York" }, encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").pop() ?? "{}") as { offset: number; serials: (number | undefined)[] };
  }

  it("is read as UTC, not in the machine's zone", () => {
    const whole = isoDateToSerial("2024-03-01");
    const { offset, serials } = serialsInNewYork(["2024-03-01T16:30:00", "2024-03-01T16:30:00Z", "2024-03-01T16:30:00+0100", "2024-03-01 06:00"]);
    expect(offset).not.toBe(0);
    expect(serials).toEqual([whole + 16.5 / 24, whole + 16.5 / 24, whole + 15.5 / 24, whole + 0.25]);
  });
});

describe("a blank cell inside a range of dates", () => {
  it("gives a blank result cell and never asks for the latest price", async () => {
    const fake = fakeClient();
    await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, dateSystem: "1900" });
    const [first, last] = [ASSESSED[3]!, ASSESSED[4]!];
    expect(await F.mid([[AL]], [[first, null, last]])).toEqual([[expectedMid(AL, first), "", expectedMid(AL, last)]]);
    expect(await F.mid([[AL]], [[first], [""], ["latest"]])).toEqual([[expectedMid(AL, first)], [""], [expectedMid(AL, ASSESSED[ASSESSED.length - 1]!)]]);
    const latestAsks = fake.calls.filter((call) => (call.args[0] as { date?: string }).date === undefined);
    expect(latestAsks).toHaveLength(1);
  });

  it("still means latest when the dates argument is omitted", async () => {
    const fake = fakeClient();
    await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false });
    expect(await F.mid([[AL]])).toEqual([[expectedMid(AL, ASSESSED[ASSESSED.length - 1]!)]]);
  });
});
