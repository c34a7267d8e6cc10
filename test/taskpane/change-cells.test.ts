/** The cells a key change concerns: the jump targets of the pane's list of changes. */
import type { KeyChange } from "../../src/sessions/change-log";
import { cellsOfChanges } from "../../src/taskpane/change-cells";

const side = { date: "2025-06-02", assessmentDate: "2025-06-02T00:00:00Z", revision: 0, low: 1, mid: 2, high: 3 };
const change = (id: string, symbol: string, dateAsked: string): KeyChange => ({ id, symbol, dateAsked, reason: "correction", before: side, after: { ...side, revision: 1, mid: 2.5 } });

it("finds the cells whose PRICES call asks the change's symbol and date, literal, referenced or as a serial", async () => {
  const dated = change("p|MB-CU-0001|2025-06-02|None|", "MB-CU-0001", "2025-06-02");
  const latest = change("p|MB-CU-0001|latest|None|", "MB-CU-0001", "latest");
  const cells = [
    { address: "Sheet1!B2", formula: '=PRICES.MID("mb-cu-0001","2025-06-02")' },
    { address: "Sheet1!B3", formula: "=PRICES.PRICE(A3,C3)" },
    { address: "Sheet1!B4", formula: '=PRICES.MID("MB-CU-0001")' },
    { address: "Sheet1!B5", formula: '=PRICES.MID("MB-CU-0001","2025-06-03")' },
    { address: "'My sheet'!B6", formula: '=2*PRICES.HIGH("MB-CU-0001",45810)' },
    { address: "Sheet1!B7", formula: '=PRICES.HISTORY("MB-CU-0001","2025-06-02","2025-06-09")' },
    { address: "Sheet1!B8", formula: '=PRICES.MID("MB-AL-0002","2025-06-02")' },
  ];
  const referenced: Record<string, unknown> = { A3: "MB-CU-0001", C3: "2025-06-02" };
  const found = await cellsOfChanges([dated, latest], cells, (address) => Promise.resolve([[referenced[address] ?? ""]]), "2025-06-10");
  expect(found.get(dated.id)).toEqual(["Sheet1!B2", "Sheet1!B3", "'My sheet'!B6"]);
  expect(found.get(latest.id)).toEqual(["Sheet1!B4"]);
});

it("finds the HISTORY cells that asked the history a changed day belongs to", async () => {
  const day = { ...change("h|MB-CU-0001|2025-06-02|2025-06-09|AssessmentDays|false||None|", "MB-CU-0001", "2025-06-04"), within: "2025-06-02..2025-06-09" };
  const other = { ...day, dateAsked: "2025-06-05" };
  const cells = [
    { address: "Sheet1!B2", formula: '=PRICES.MID("MB-CU-0001","2025-06-04")' },
    { address: "Sheet1!B7", formula: '=PRICES.HISTORY("MB-CU-0001","2025-06-02","2025-06-09")' },
    { address: "Sheet1!G7", formula: '=PRICES.HISTORY("MB-CU-0001","2025-06-02")' },
    { address: "Sheet1!L7", formula: '=PRICES.HISTORY("MB-CU-0001","2025-06-03","2025-06-09")' },
  ];
  const found = await cellsOfChanges([day, other], cells, () => Promise.resolve([[""]]), "2025-06-09");
  expect(found.get(day.id)).toEqual(["Sheet1!B7", "Sheet1!G7"]);
});
