/** The data types' number formats as Excel shows them. */
import { formatNumber } from "../../src/host/number-format";

describe("formatNumber", () => {
  it("groups thousands and shows two to four decimals with the quoted suffix", () => {
    expect(formatNumber(1234.5, '#,##0.00##" USD/MT"')).toBe("1,234.50 USD/MT");
    expect(formatNumber(0.123456, '#,##0.00##" USD/LB"')).toBe("0.1235 USD/LB");
    expect(formatNumber(-2, "#,##0.00")).toBe("-2.00");
  });

  it("shows dates and date-times in both date systems", () => {
    expect(formatNumber(45295.6875, "yyyy-mm-dd hh:mm")).toBe("2024-01-04 16:30");
    expect(formatNumber(45296, "yyyy-mm-dd")).toBe("2024-01-05");
    expect(formatNumber(45296 - 1462, "yyyy-mm-dd", "1904")).toBe("2024-01-05");
  });

  it("falls back to General for another format or none", () => {
    expect(formatNumber(1.5, "0.0%")).toBe("1.5");
    expect(formatNumber(1 / 3, undefined)).toBe("0.3333333333");
  });
});
