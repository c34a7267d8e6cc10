/** The data types' number formats as Excel shows them. */
import { formatNumber } from "../../src/host/number-format";

const PRICE = '#,##0.00##" USD/MT"';

describe("formatNumber", () => {
  it("groups thousands and shows two to four decimals with the quoted suffix", () => {
    expect(formatNumber(1234.5, PRICE)).toBe("1,234.50 USD/MT");
    expect(formatNumber(0.123456, '#,##0.00##" USD/LB"')).toBe("0.1235 USD/LB");
    expect(formatNumber(-2, "#,##0.00")).toBe("-2.00");
  });

  it("shows negative numbers, zero and large numbers as Excel does", () => {
    expect(formatNumber(-1234.56789, PRICE)).toBe("-1,234.5679 USD/MT");
    expect(formatNumber(0, PRICE)).toBe("0.00 USD/MT");
    expect(formatNumber(-0, PRICE)).toBe("0.00 USD/MT");
    expect(formatNumber(123_456_789_012.345, PRICE)).toBe("123,456,789,012.345 USD/MT");
    expect(formatNumber(1e20, "#,##0.00")).toBe("100,000,000,000,000,000,000.00");
  });

  it("drops the minus of a negative number that shows as zero, as Excel does", () => {
    expect(formatNumber(-0.00001, PRICE)).toBe("0.00 USD/MT");
  });

  it("rounds the decimal the number was written as, as Excel does (2.00005 is 2.0001)", () => {
    expect(formatNumber(2.00005, PRICE)).toBe("2.0001 USD/MT");
  });

  it("shows a number JavaScript writes with an exponent in General", () => {
    expect(formatNumber(1e21, PRICE)).toBe("1E+21");
    expect(formatNumber(-1e21, PRICE)).toBe("-1E+21");
  });

  it("shows dates and date-times in both date systems", () => {
    expect(formatNumber(45295.6875, "yyyy-mm-dd hh:mm")).toBe("2024-01-04 16:30");
    expect(formatNumber(45296, "yyyy-mm-dd")).toBe("2024-01-05");
    expect(formatNumber(45296 - 1462, "yyyy-mm-dd", "1904")).toBe("2024-01-05");
    expect(formatNumber(45295.6875 - 1462, "yyyy-mm-dd hh:mm", "1904")).toBe("2024-01-04 16:30");
    expect(formatNumber(0, "yyyy-mm-dd", "1904")).toBe("1904-01-01");
  });

  it("rounds a time to the second before showing its minutes, as Excel does", () => {
    expect(formatNumber(45352.99999, "yyyy-mm-dd hh:mm")).toBe("2024-03-01 23:59");
    expect(formatNumber(45352 + 86_399.4 / 86_400, "yyyy-mm-dd hh:mm")).toBe("2024-03-01 23:59");
    expect(formatNumber(45352 + 86_399.6 / 86_400, "yyyy-mm-dd hh:mm")).toBe("2024-03-02 00:00");
    expect(formatNumber(45352 + 86_399.6 / 86_400, "yyyy-mm-dd")).toBe("2024-03-02");
    expect(formatNumber(45352 - 1462 + 86_399.6 / 86_400, "yyyy-mm-dd hh:mm", "1904")).toBe("2024-03-02 00:00");
  });

  it("shows Excel's day 0 and its 1900-02-29, and General for a serial no date system shows", () => {
    expect(formatNumber(0, "yyyy-mm-dd")).toBe("1900-01-00");
    expect(formatNumber(60, "yyyy-mm-dd")).toBe("1900-02-29");
    expect(formatNumber(-1, "yyyy-mm-dd")).toBe("-1");
    expect(formatNumber(-1, "yyyy-mm-dd", "1904")).toBe("-1");
    expect(formatNumber(2_958_466, "yyyy-mm-dd")).toBe("2958466");
  });

  it("falls back to General for another format or none", () => {
    expect(formatNumber(1.5, "0.0%")).toBe("1.5");
    expect(formatNumber(1 / 3, undefined)).toBe("0.3333333333");
  });
});
