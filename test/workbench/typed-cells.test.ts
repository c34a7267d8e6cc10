import { dateColumns } from "../../src/workbench/format";
import { TYPED_CELLS_KEY, typedCellStore } from "../../src/workbench/typed-cells";

function memoryStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

describe("typedCellStore", () => {
  it("keeps what was typed by address, the latest typing last, and forgets it all on request", () => {
    const storage = memoryStorage();
    const store = typedCellStore(storage);
    store.remember("B2", "=PRICES.MID(\"MB-AL-0004\")");
    store.remember("C3", "42");
    store.remember("B2", "");
    expect(Object.entries(store.all())).toEqual([["C3", "42"], ["B2", ""]]);
    expect(typedCellStore(storage).all()).toEqual({ C3: "42", B2: "" });
    store.forget();
    expect(store.all()).toEqual({});
    expect(storage.data.has(TYPED_CELLS_KEY)).toBe(false);
  });

  it("reads an unreadable or foreign entry as nothing typed", () => {
    const storage = memoryStorage();
    storage.data.set(TYPED_CELLS_KEY, "{not json");
    expect(typedCellStore(storage).all()).toEqual({});
    storage.data.set(TYPED_CELLS_KEY, JSON.stringify({ A1: 5, B1: "x" }));
    expect(typedCellStore(storage).all()).toEqual({ B1: "x" });
  });
});

describe("dateColumns", () => {
  it("names HISTORY's date columns from its fields, so a table without headers shows dates", () => {
    expect([...(dateColumns('=PRICES.HISTORY("MB-AL-0004","2024-01-01","2024-12-31","date,mid",0,"Weekdays",,"descending")') ?? [])]).toEqual([0]);
    expect([...(dateColumns('=PRICES.HISTORY("MB-AL-0004","2024-01-01",,"mid,assessmentDate,date",0)') ?? [])]).toEqual([1, 2]);
    expect([...(dateColumns('=PRICES.HISTORY("MB-AL-0004","2024-01-01",,,0)') ?? [])]).toEqual([0]);
    expect([...(dateColumns('=PRICES.HISTORY("MB-AL-0004","2024-01-01",,"mid,high",0)') ?? [])]).toEqual([]);
  });

  it("says nothing for text dates, a fields reference, or another function", () => {
    expect(dateColumns('=PRICES.HISTORY("MB-AL-0004","2024-01-01",,"date,mid",0,,,,"text")')).toBeUndefined();
    expect(dateColumns('=PRICES.HISTORY("MB-AL-0004","2024-01-01",,B1,0)')).toBeUndefined();
    expect(dateColumns('=PRICES.MID("MB-AL-0004")')).toBeUndefined();
  });
});
