/** Data types in the host engine: kept in their cells, read plain by references, fields by `A2.Mid`, cards, stored values. */
import { readBook } from "../../src/host/book";
import { WorkbookEngine } from "../../src/host/engine";
import { parseExpression } from "../../src/formula/parse";
import { parseFunctionsMetadata } from "../../src/host/metadata";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import { cardOf, dataTypeCells, isRichCell, richText, storedCellOf } from "../../src/host/rich-cells";
import { parseCellAddress } from "../../src/formula/a1";
import { instrumentEntity, richPrice } from "../../src/functions/data-types";

const RECORD = { date: "2024-01-05", assessmentDate: "2024-01-04T16:30:00+00:00", revision: 0, low: 99, mid: 100, high: 101 };
const INSTRUMENT = {
  symbol: "MB-AL-0004",
  productId: "P0",
  description: "Aluminium P1020 ingot, in-whs Rotterdam",
  descriptionShort: "Aluminium Rotterdam",
  commodityId: "AL",
  commodity: "Aluminium",
  priceType: "Price",
  locationId: "NL-RTM",
  location: "Rotterdam",
  currencyId: "USD",
  currency: "US Dollar",
  unitOfMeasureId: "MT",
  unitOfMeasure: "Metric tonne",
  incotermId: "INWHS",
  incoterm: "In warehouse",
  launchDate: "2005-01-03",
  frequency: "Twice weekly",
  sourceId: "MB",
  source: "Metal Bulletin",
  status: "Active",
  priceCalculationTypeIds: [],
};

function price(value: number) {
  return richPrice(value, { symbol: "MB-AL-0004", field: "mid", record: RECORD, own: { currency: "USD", unit: "MT" }, target: {}, request: "symbol=MB-AL-0004; date=2024-01-05", system: "1900" });
}

function engine(): WorkbookEngine {
  const runtime = createCustomFunctionsRuntime();
  runtime.global.associate({
    RICH: (value: number) => price(value),
    RICHGRID: () => [[price(1.5), price(2.25)], [price(3), price(4)]],
    PLAIN: (value: number) => value,
    CARD: () => instrumentEntity(INSTRUMENT, RECORD, "1900", true),
  });
  const metadata = parseFunctionsMetadata({
    allowCustomDataForDataTypeAny: true,
    functions: [
      { id: "RICH", name: "RICH", parameters: [{ name: "value", type: "number" }], result: { type: "any" } },
      { id: "RICHGRID", name: "RICHGRID", parameters: [], result: { type: "any", dimensionality: "matrix" } },
      { id: "PLAIN", name: "PLAIN", parameters: [{ name: "value", type: "number" }], result: { type: "number" } },
      { id: "CARD", name: "CARD", parameters: [], result: { type: "any" } },
    ],
  });
  return new WorkbookEngine({ runtime, metadata, namespace: "PRICES" });
}

async function evaluated(cells: Record<string, unknown>): Promise<WorkbookEngine> {
  const host = engine();
  host.load(readBook({ cells }));
  await host.evaluate();
  return host;
}

describe("data types in the host", () => {
  it("reads A2.Mid and A2.[Launch date] as field access, and leaves a dotted name a name", () => {
    expect(parseExpression("=A2.Mid")).toEqual({ kind: "field", target: { kind: "reference", text: "A2", range: { top: 1, left: 0, bottom: 1, right: 0 } }, field: "Mid" });
    expect(parseExpression("=Sheet1!A2.[Launch date]+1")).toMatchObject({ kind: "binary", left: { kind: "field", target: { sheet: "Sheet1" }, field: "Launch date" } });
    expect(parseExpression("=my.name")).toEqual({ kind: "name", name: "my.name" });
  });

  it("keeps a data type in its cell while references, arithmetic and SUM read the plain number", async () => {
    const host = await evaluated({ A1: "=PRICES.RICH(10.5)", A2: "=PRICES.RICH(2)", B1: "=PRICES.PLAIN(10.5)", B2: "=PRICES.PLAIN(2)", C1: "=SUM(A1:A2)", C2: "=SUM(B1:B2)", D1: "=A1*2", D2: "=PRICES.RICH(3)+1" });
    expect(isRichCell(host.resultCell(0, 0))).toBe(true);
    expect(host.cells()).toMatchObject({ A1: 10.5, A2: 2, C1: 12.5, C2: 12.5, D1: 21, D2: 4 });
    // a data type inside a larger expression is its plain value, as in Excel
    expect(isRichCell(host.resultCell(1, 3))).toBe(false);
  });

  it("spills a grid of data types and sums it as the plain numbers", async () => {
    const host = await evaluated({ A1: "=PRICES.RICHGRID()", D1: "=SUM(A1#)" });
    expect(host.cells()).toMatchObject({ A1: 1.5, B1: 2.25, A2: 3, B2: 4, D1: 10.75 });
    expect(isRichCell(host.resultCell(1, 1))).toBe(true);
  });

  it("calculates =A2.Mid on an entity and a price's properties, after the cell it reads", async () => {
    const host = await evaluated({
      B1: "=A2.Mid",
      B2: "=A2.[Launch date]",
      B3: "=A2.commodity",
      B4: "=C1.Currency",
      B5: "=A2.Nope",
      B6: "=D1.Mid",
      B7: "=A2.Mid*2",
      A2: "=PRICES.CARD()",
      C1: "=PRICES.RICH(7)",
      D1: 5,
    });
    const cells = host.cells();
    expect(cells).toMatchObject({ A2: "MB-AL-0004 Aluminium Rotterdam", B1: 100, B2: 38355, B3: "Aluminium", B4: "USD", B6: expect.stringMatching(/^#VALUE!: #FIELD!/), B7: 200 });
    expect(cells.B5).toMatch(/^#VALUE!: #FIELD!: no field 'Nope'; fields: Symbol, Description/);
  });

  it("lists a card's fields in the layout's order with their number formats", async () => {
    const host = await evaluated({ A1: "=PRICES.CARD()", A2: "=PRICES.RICH(7)" });
    const entity = host.resultCell(0, 0);
    if (!isRichCell(entity)) throw new Error("expected a data type");
    const card = cardOf(entity);
    expect(card.title).toBe("MB-AL-0004");
    expect(card.subtitle).toBe("Aluminium P1020 ingot, in-whs Rotterdam");
    expect(card.sections[0]).toEqual({
      title: "Latest price",
      fields: [
        { name: "Low", value: 99, numberFormat: '#,##0.00##" USD/MT"' },
        { name: "Mid", value: 100, numberFormat: '#,##0.00##" USD/MT"' },
        { name: "High", value: 101, numberFormat: '#,##0.00##" USD/MT"' },
        { name: "Assessment date", value: 45295.6875, numberFormat: "yyyy-mm-dd hh:mm" },
        { name: "Price date", value: 45296, numberFormat: "yyyy-mm-dd" },
      ],
    });
    expect(card.sections[1]?.fields.map((field) => field.name)).toEqual(["Symbol", "Description", "Short description", "Commodity", "Location", "Currency", "Unit", "Incoterm", "Frequency", "Source", "Price type", "Status", "Launch date", "Currency id", "Unit id"]);
    const number = host.resultCell(1, 0);
    if (!isRichCell(number)) throw new Error("expected a data type");
    expect(cardOf(number).sections[0]?.fields.map((field) => field.name)).toEqual(["Value", "Symbol", "Field", "Currency", "Unit", "Date", "Assessment date", "Revision", "Carried forward", "Conversion", "Request"]);
  });

  it("stores a data type in a file as its plain value with its number format", async () => {
    const host = await evaluated({ A1: "=PRICES.RICH(7)", A2: "=PRICES.CARD()", A3: 4 });
    expect(storedCellOf(host.resultCell(0, 0))).toEqual({ value: 7, numberFormat: '#,##0.00##" USD/MT"' });
    expect(storedCellOf(host.resultCell(1, 0))).toEqual({ value: "MB-AL-0004 Aluminium Rotterdam" });
    expect(storedCellOf(host.resultCell(2, 0))).toEqual({ value: 4 });
  });

  it("reports the data-type cells of a sheet with their number format and card, as the runner's result carries them", async () => {
    const host = await evaluated({ A1: "=PRICES.RICH(1234.5)", A2: "=PRICES.CARD()", A3: "=A1*2" });
    const cells = dataTypeCells(Object.keys(host.cells()), (address) => {
      const at = parseCellAddress(address)!;
      return host.resultCell(at.row, at.col);
    });
    expect(Object.keys(cells)).toEqual(["A1", "A2"]);
    expect(cells.A1).toMatchObject({ type: "Double", numberFormat: '#,##0.00##" USD/MT"', card: { title: "MB-AL-0004" } });
    expect(cells.A2).toMatchObject({ type: "Entity", card: { title: "MB-AL-0004", subtitle: "Aluminium P1020 ingot, in-whs Rotterdam" } });
    expect(richText(host.resultCell(0, 0))).toBe("1,234.50 USD/MT");
  });
});
