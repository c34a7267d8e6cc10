import { addDays } from "../../src/api/dates";

describe("addDays", () => {
  it("moves across month, leap-day and year ends in both directions", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-02-28", 2)).toBe("2024-03-01");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2025-01-01", -1)).toBe("2024-12-31");
    expect(addDays("2025-06-30", -365)).toBe("2024-06-30");
    expect(addDays("2024-03-01", 0)).toBe("2024-03-01");
  });
});
