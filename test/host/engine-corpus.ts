/**
 * The engine corpus: input cells and more than 500 formulas across Excel's function families, as a file stores
 * them (`_xlfn.` on newer functions). Expected values come from LibreOffice's recalculation of the .xlsx the test
 * writes, except where Excel's documented value differs from LibreOffice's (or LibreOffice 7.4 lacks the function):
 * those cases carry the Excel value and say why.
 */
export type Expected = number | string | boolean | { readonly error: string };

export interface CorpusFormula {
  /** The formula as the file stores it, without "=". */
  readonly formula: string;
  /** Excel's documented value where LibreOffice's differs, and why. */
  readonly excel?: { readonly value: Expected; readonly why: string };
}

/**
 * Inputs on the corpus sheet: numbers (A), mixed values (B), text (C), dates (D), x (E) and y (F) with gaps, errors (G).
 * No TRUE/FALSE cell: LibreOffice stores them as the numbers 1 and 0, so a range holding one differs from Excel by
 * design (the engine's unit tests check Excel's rule that a range skips them).
 */
export const INPUTS: Readonly<Record<string, number | string | boolean>> = {
  A1: 10, A2: 7, A3: 9, A4: 27, A5: 2, A7: 4.5, A8: -3, A9: 0, A10: 100,
  B1: 1, B2: "5", B3: "7", B5: "abc", B6: 3, B7: 2.5, B8: "x", B9: 8,
  C1: "apple", C2: "banana", C3: "Apricot", C4: "cherry", C5: "a*b", C6: "grape", C7: "Apple pie", C8: "b?n", C9: "Zed", C10: "mango",
  D1: 45352, D2: 45000, D3: 36526, D4: 45657.75, D5: 44927, D6: 45291, D7: 45716, D8: 21916, D9: 45445, D10: 45350,
  E1: 2, E2: 4, E3: 5, E4: 4, E5: 5, E6: 7, E7: 8, E8: 9, E10: 10,
  F1: 1.5, F2: 3.1, F3: 4.2, F4: 3.9, F5: 5.5, F6: 6.8, F7: 8.1, F8: 8.8, F9: 9.7,
  H1: "Region", I1: "Units", J1: "Price",
  H2: "North", I2: 10, J2: 2.5,
  H3: "South", I3: 4, J3: 3,
  H4: "East", I4: 7, J4: 1.25,
  H5: "West", I5: 12, J5: 4,
};

/** Input formulas (errors to propagate). */
export const INPUT_FORMULAS: Readonly<Record<string, string>> = { G1: "1/0", G2: "NA()", G3: '"text"', G4: "1" };

/** Functions a file writes with `_xlfn.` (and `_xlfn._xlws.` for FILTER and SORT). */
const NEWER = new Set([
  "STDEV.S", "STDEV.P", "VAR.S", "VAR.P", "PERCENTILE.INC", "PERCENTILE.EXC", "QUARTILE.INC", "QUARTILE.EXC", "RANK.EQ", "RANK.AVG",
  "MODE.SNGL", "FORECAST.LINEAR", "COVARIANCE.P", "COVARIANCE.S", "CONCAT", "TEXTJOIN", "IFS", "SWITCH", "MAXIFS", "MINIFS", "XLOOKUP",
  "SEQUENCE", "LET", "UNIQUE", "SINGLE", "ANCHORARRAY", "DAYS", "CEILING.MATH", "FLOOR.MATH", "XOR", "IFNA", "TAKE", "DROP",
]);

/** `STDEV.S(...)` as a file stores it: `_xlfn.STDEV.S(...)`. */
export function fileForm(formula: string): string {
  return formula.replace(/(^|[^A-Za-z0-9_.])([A-Z][A-Z0-9]*(?:\.[A-Z0-9]+)*)\(/g, (whole, before: string, name: string) => {
    if (name === "FILTER" || name === "SORT") return `${before}_xlfn._xlws.${name}(`;
    return NEWER.has(name) ? `${before}_xlfn.${name}(` : whole;
  });
}

const excel = (value: Expected, why: string): CorpusFormula["excel"] => ({ value, why });
const LO_LACKS = "LibreOffice 7.4 has no such function (#NAME?); the value is Excel's documented result";

function each(template: (value: string) => string, values: readonly (string | number)[]): string[] {
  return values.map((value) => template(String(value)));
}

const OPERATORS = [
  "1+2*3", "(1+2)*3", "2^10", "-2^2", "2^-1", "10/4", "5%", "50%*4", "7-10", "1/3", "0.1+0.2", "0.1+0.2=0.3", "0.1*3=0.3", "1-0.9=0.1",
  '"5"+1', '"1,000"+1', '" 5 "*2', '"50%"*2', '"1e3"+0', '"$5"+1', '"abc"&1', "A1&B1", "1/3&\"\"", "TRUE+1", "TRUE*TRUE", '"a"="A"', '"a"<"B"',
  '"b">"A"', "1<\"a\"", '"a"<TRUE', "A6=0", 'A6=""', "A6=FALSE", "1=TRUE", "2>1", "A1>=A2", "A1<>A2", "A1+A6", "A6&\"x\"", "-A8", "+C1",
  "10*A1%", "2^0.5", "1E+300*1E+10", "A1/A9", "G1+1", "1+G2", "G1&G2", "G3&G4",
  '"0x10"+1', "0^-1", "2^0", "SUM(A:A)", "COUNTA(C:C)", "MAX(E:F)", "COUNTIF(C:C,\"a*\")", "SUM(1:1)",
];

const MATH = [
  ...each((v) => `ROUND(${v})`, ["2.15,1", "-1.475,2", "21.5,-1", "1234.5678,-2", "2.5,0", "-2.5,0", "0.285,2", "1.005,2", "1234.5678,2", "-0.5,0"]),
  ...each((v) => `ROUNDUP(${v})`, ["3.2,0", "-3.2,0", "31415.92654,-2", "0.1+0.2,15"]),
  ...each((v) => `ROUNDDOWN(${v})`, ["3.7,0", "-3.7,0", "3.14159,3"]),
  ...each((v) => `MOD(${v})`, ["7,3", "-7,3", "7,-3", "-7,-3", "7.5,2", "0,5", "5,0", "3,1.5", "-1,10"]),
  ...each((v) => `INT(${v})`, ["2.5", "-2.5", "A7"]),
  ...each((v) => `TRUNC(${v})`, ["2.7", "-2.7", "3.14159,2"]),
  "ABS(A8)", "SQRT(16)", "SQRT(-1)", "POWER(2,8)", "POWER(0,-1)", "POWER(0,0)", "EXP(1)", "LN(10)", "LN(0)", "LOG(100)", "LOG(8,2)", "LOG10(1000)",
  "SIGN(A8)", "SIGN(A9)", "PI()", "SIN(PI()/2)", "COS(0)", "TAN(0)", "ATAN2(1,1)", "DEGREES(PI())", "RADIANS(180)",
  ...each((v) => `CEILING(${v})`, ["2.5,1", "-2.5,-2", "1.5,0.1", "-2.5,2"]),
  ...each((v) => `FLOOR(${v})`, ["2.5,1", "-2.5,-2", "1.58,0.1"]),
  ...each((v) => `CEILING.MATH(${v})`, ["-2.5", "24.3,5", "-8.1,2,1"]),
  ...each((v) => `FLOOR.MATH(${v})`, ["-2.5", "24.3,5", "-8.1,2,1"]),
  "EVEN(1.5)", "EVEN(-1)", "ODD(1.5)", "ODD(2)", "ODD(-2)", "FACT(5)", "FACT(0)", "GCD(24,36)", "LCM(4,6)", "QUOTIENT(-7,2)", "MROUND(10,3)", "MROUND(-10,-3)",
];

const RANGES = ["A1:A10", "B1:B10", "E1:E10", "A1:B10"];
const AGGREGATES = [
  ...["SUM", "AVERAGE", "COUNT", "COUNTA", "COUNTBLANK", "MIN", "MAX", "PRODUCT", "SUMSQ", "AVERAGEA", "MAXA", "MINA"].flatMap((fn) =>
    RANGES.filter((range) => fn !== "COUNTBLANK" || range !== "A1:B10").map((range) => `${fn}(${range})`),
  ),
  'SUM("5",TRUE,1)', "SUM(B2)", "SUM(B2,1)", "SUM(B2:B3)", "SUM(A1,A6,B3)", "AVERAGE(B2,2)", "COUNT(1,\"2\",TRUE,\"x\")", "COUNT(B1:B10,\"3\")", "COUNTA(1,\"\",A6)",
  "MAX(A6)", "MIN(C1:C3)", "SUM({1,2;3,4})", 'SUM({"5",1})', "AVERAGE(A1:A3,100)", "SUMPRODUCT(E1:E10,F1:F10)", "SUMPRODUCT(A1:A5,E1:E5)", "SUMPRODUCT((A1:A10>5)*1)",
  "SUM(G1:G4)", "SUM(G3:G4)", "COUNT(G1:G4)", "COUNTA(G1:G4)", "MAX(A1,G2)",
];

const STATISTICS = [
  ...["MEDIAN", "MODE", "MODE.SNGL", "STDEV", "STDEV.S", "STDEV.P", "STDEVP", "VAR", "VAR.S", "VAR.P", "VARP", "GEOMEAN", "HARMEAN", "AVEDEV", "DEVSQ", "STDEVA"].flatMap((fn) =>
    ["A1:A10", "E1:E10", "B1:B10"].map((range) => `${fn}(${range})`),
  ),
  "MEDIAN(1,2,3,4)", "MEDIAN(A6:A7)", "STDEV(1)", "VAR.P(5)", "MODE(1,2,3)",
  ...["PERCENTILE", "PERCENTILE.INC"].flatMap((fn) => [0, 0.25, 0.5, 0.9, 1, 1.5].map((k) => `${fn}(A1:A10,${k})`)),
  ...[0.1, 0.25, 0.5, 0.9].map((k) => `PERCENTILE.EXC(A1:A10,${k})`),
  ...["QUARTILE", "QUARTILE.INC"].flatMap((fn) => [0, 1, 2, 3, 4].map((q) => `${fn}(E1:E10,${q})`)),
  ...[1, 2, 3].map((q) => `QUARTILE.EXC(E1:E10,${q})`),
  ...["RANK", "RANK.EQ", "RANK.AVG"].flatMap((fn) => [`${fn}(A3,A1:A10)`, `${fn}(A3,A1:A10,1)`, `${fn}(5,E1:E10)`, `${fn}(4,E1:E10,1)`, `${fn}(99,A1:A10)`]),
  ...["LARGE", "SMALL"].flatMap((fn) => [1, 2, 3, 9, 10].map((k) => `${fn}(A1:A10,${k})`)),
  ...["CORREL", "PEARSON", "SLOPE", "INTERCEPT", "RSQ", "COVAR", "COVARIANCE.P", "COVARIANCE.S"].flatMap((fn) => [`${fn}(F1:F10,E1:E10)`, `${fn}(A1:A5,E1:E5)`]),
  "FORECAST(11,F1:F10,E1:E10)", "FORECAST.LINEAR(6,F1:F10,E1:E10)", "FORECAST(3,A1:A5,E1:E5)", "CORREL(E1:E3,F1:F4)", "SLOPE({1,2,3},{1,1,1})",
];

const CRITERIA = [
  ...["a*", "?pple*", "~*", "*b*", "apple", "APPLE", "<>apple", "<>", "", "=", ">m", "<=banana", "*e", "b~?n", "???"].map((c) => `COUNTIF(C1:C10,"${c}")`),
  ...[">5", ">=9", "<0", "=10", "<>10", "10", "5", "abc", "TRUE", ">=4.5"].map((c) => `COUNTIF(A1:B10,"${c}")`),
  "COUNTIF(A1:A10,10)", "COUNTIF(B1:B10,TRUE)", "COUNTIF(A1:A10,A2)",
  'SUMIF(A1:A10,">5")', 'SUMIF(C1:C10,"a*",A1:A10)', 'SUMIF(C1:C10,"<>apple",A1:A10)', 'SUMIF(B1:B10,"5",A1:A10)',
  'AVERAGEIF(A1:A10,">0")', 'AVERAGEIF(C1:C10,"*a*",A1:A10)', 'AVERAGEIF(A1:A10,">1000")',
  'COUNTIFS(A1:A10,">0",E1:E10,">4")', 'SUMIFS(A1:A10,C1:C10,"a*",A1:A10,">5")', 'SUMIFS(I2:I5,H2:H5,"*th")',
  'MAXIFS(A1:A10,C1:C10,"?a*")', 'MINIFS(A1:A10,E1:E10,">=5")', 'AVERAGEIFS(F1:F10,E1:E10,">4",E1:E10,"<9")',
];

const LOOKUPS = [
  'VLOOKUP("South",H2:J5,2,FALSE)', 'VLOOKUP("south",H2:J5,3,FALSE)', 'VLOOKUP("Nowhere",H2:J5,2,FALSE)', 'VLOOKUP("S*",H2:J5,2,FALSE)', 'VLOOKUP("East",H2:J5,4,FALSE)',
  "VLOOKUP(6,E1:F8,2)", "VLOOKUP(4.5,E1:F8,2,TRUE)", "VLOOKUP(1,E1:F8,2)", "VLOOKUP(100,E1:F8,2)",
  'HLOOKUP("Units",H1:J5,3,FALSE)', 'HLOOKUP("Price",H1:J5,5,FALSE)',
  'MATCH("East",H2:H5,0)', 'MATCH("w*",H2:H5,0)', "MATCH(5,E1:E8,1)", "MATCH(6,E1:E8)", 'MATCH("none",H2:H5,0)', "MATCH(12,I2:I5,0)",
  "INDEX(A1:A10,4)", "INDEX(H1:J5,3,2)", "INDEX(H2:J2,3)", "INDEX(H1:J5,6,1)", 'INDEX(J2:J5,MATCH("West",H2:H5,0))',
  'CHOOSE(2,"a","b","c")', "CHOOSE(4,1,2,3)", "ROWS(A1:C7)", "COLUMNS(A1:C7)", "ROW(C5)", "COLUMN(C5)", "ROW()", "COLUMN()",
];

const TEXT_FUNCTIONS = [
  ...["C1", "C5", "A1", "A6", "B3", "A7", "D4"].map((cell) => `LEN(${cell})`),
  'LEN("hello")', 'LEFT("Apple pie",5)', "LEFT(C2)", "LEFT(A10,2)", 'LEFT("abc",-1)', 'RIGHT("Apple pie",3)', "RIGHT(C2,10)", 'MID("Apple pie",3,4)', 'MID("abc",0,1)',
  "UPPER(C1)", "LOWER(C3)", 'PROPER("hello wORLD-again")', 'TRIM("  a   b  ")', 'FIND("p",C1)', 'FIND("P",C1)', 'FIND("p",C1,3)', 'SEARCH("P",C1)',
  'SEARCH("a?r",C3)', 'SEARCH("*",C5)', 'SEARCH("~*",C5)', 'SUBSTITUTE("a-b-c","-","+")', 'SUBSTITUTE("a-b-c","-","+",2)', 'REPLACE("abcdef",2,3,"X")',
  'REPT("ab",3)', 'EXACT("a","A")', "EXACT(C1,\"apple\")", 'CONCATENATE(C1," ",A1)', "CONCAT(C1:C3)", 'CONCAT(A1:A3,"-")', 'TEXTJOIN(",",TRUE,B1:B10)',
  'TEXTJOIN("-",FALSE,A5:A7)', 'VALUE("12.5")', 'VALUE("1,234")', 'VALUE("abc")', 'VALUE("2024-03-01")', 'VALUE("12:00")', "T(C1)", "T(A1)", "N(A1)", "N(C1)", "N(B3)",
  "CHAR(65)", 'CODE("A")', 'LEN(SUBSTITUTE(C2,"a",""))', 'UPPER(LEFT(C4))&MID(C4,2,99)', "LEN(G1)", "TRIM(A8)",
];

const TEXT_FORMATS = [
  ...["mmm-yy", "yyyy-mm-dd", "dd/mm/yyyy", "dddd", "ddd d mmm yyyy", "mmmm", "m/d/yy", "yyyy", "hh:mm", "h:mm AM/PM", "yyyy-mm-dd hh:mm:ss"].map((f) => `TEXT(D4,"${f}")`),
  ...["000000", "$#,##0.00", "0.0%", "#,##0", "0.00E+00", "0.00", "#.##", "0.00;(0.00)", "# ?/?", "@", '"Total: "0'].map((f) => `TEXT(1234.567,"${f.replace(/"/g, '""')}")`),
  'TEXT(-5,"0.00;(0.00)")', 'TEXT(0,"0.00;(0.00);\\z\\e\\r\\o")', 'TEXT(42,"000000")', 'TEXT(0.256,"0%")', 'TEXT(D1,"mmm-yy")', 'TEXT(DATE(2024,3,1),"mmmm d, yyyy")',
  'TEXT(C1,"@")', 'TEXT(B2,"0.00")', 'TEXT(0.75,"h:mm")', 'TEXT(1.5,"[h]:mm")',
];

const INFO_LOGIC = [
  ...["A6", "C1", "A1", "B2", "B3", "G1", "G2"].flatMap((cell) => [`ISBLANK(${cell})`, `ISTEXT(${cell})`, `ISNUMBER(${cell})`]),
  "ISLOGICAL(B3)", "ISNONTEXT(C1)", "ISERROR(G1)", "ISERROR(A1)", "ISERR(G2)", "ISERR(G1)", "ISNA(G2)", "ISNA(G1)", "ISEVEN(A1)", "ISODD(A2)", "ERROR.TYPE(G1)", "ERROR.TYPE(G2)",
  'IF(A1>5,"big","small")', "IF(A6,1,2)", "IF(A1>5,A1)", "IF(FALSE,1)", 'IF("TRUE",1,2)', "IF(G1,1,2)", 'IFERROR(G1,"caught")', "IFERROR(A1,0)", 'IFNA(G2,"na")', "IFNA(G1,0)",
  'IFS(A1>50,"big",A1>5,"medium",TRUE,"small")', 'IFS(A2>50,"big")', 'IFS(A1,"n")', 'SWITCH(A2,7,"seven",9,"nine","other")', 'SWITCH(C1,"apple",1,"banana",2)',
  'SWITCH(A3,7,"seven",9,"nine")', 'SWITCH(A5,7,"seven","other")',
  "AND(A1>5,A2>5)", "AND(B1:B10)", "OR(A1>50,A2>5)", "OR(A6)", "XOR(TRUE,TRUE,TRUE)", "NOT(A9)", "AND(TRUE,\"x\")", "TRUE()", "FALSE()", "NA()",
];

const DATES = [
  "DATE(2024,3,1)", "DATE(2024,14,1)", "DATE(2024,1,0)", "DATE(2024,3,-1)", "DATE(99,1,1)", "DATE(1900,3,1)", "DATE(2024.9,2.9,29.9)", "DATE(10000,1,1)",
  ...["D1", "D3", "D4", "D8"].flatMap((cell) => [`YEAR(${cell})`, `MONTH(${cell})`, `DAY(${cell})`]),
  ...[1, 2, 3, 11, 12, 16, 17].map((type) => `WEEKDAY(D1,${type})`), "WEEKDAY(D8)", "WEEKDAY(D3)",
  "EDATE(D1,1)", "EDATE(DATE(2024,1,31),1)", "EDATE(DATE(2024,3,31),-1)", "EOMONTH(D1,0)", "EOMONTH(D1,-2)", "EOMONTH(DATE(2023,12,15),2)",
  "DAYS(D1,D2)", "DAYS(DATE(2024,12,25),DATE(2024,1,1))", 'DATEVALUE("2024-03-01")', 'DATEVALUE("2024-02-30")', "HOUR(D4)", "MINUTE(0.7654)", "SECOND(0.7654)", "TIME(18,30,0)", "TIME(25,0,0)",
  "WORKDAY(D1,10)", "WORKDAY(D1,-3)", "WORKDAY(D1,5,D10:D10)", "NETWORKDAYS(D2,D1)", "NETWORKDAYS(DATE(2024,1,1),DATE(2024,1,31))", "NETWORKDAYS(D1,D2)",
  "D1-D2", "D1+30", '"2024-03-01"+1', 'YEAR("2024-03-01")', "DATE(2024,3,1)-DATE(1899,12,31)", "YEAR(DATE(2024,3,1))+MONTH(D4)",
];

const REFERENCES = [
  "OFFSET(A1,1,0)", "SUM(OFFSET(A1,0,0,3,1))", "SUM(OFFSET(A1:A2,1,4,3,2))", "OFFSET(A1,-1,0)", 'INDIRECT("A2")', 'INDIRECT("A"&3)', 'SUM(INDIRECT("A1:A3"))',
  'INDIRECT("C"&MATCH("mango",C1:C10,0))', 'INDIRECT("nowhere")', "@A1:A10", "SUM(@A1:A10)", "ROWS(OFFSET(A1,0,0,4,2))",
  // functions the engine does not evaluate: reported as left for Excel, never guessed
  "YEARFRAC(D2,D1,1)", "ROUND(NPV(0.1,E1:E5),2)",
];

const DYNAMIC: CorpusFormula[] = [
  { formula: "SUM(SEQUENCE(4))", excel: excel(10, LO_LACKS) },
  { formula: 'XLOOKUP("West",H2:H5,I2:I5)', excel: excel(12, LO_LACKS) },
  { formula: 'XLOOKUP("Nowhere",H2:H5,I2:I5,"none")', excel: excel("none", LO_LACKS) },
  { formula: "XLOOKUP(6,E1:E8,F1:F8,,-1)", excel: excel(4.2, LO_LACKS) },
  { formula: 'XLOOKUP("?ast",H2:H5,J2:J5,,2)', excel: excel(1.25, LO_LACKS) },
  { formula: "SUM(SEQUENCE(2,3,10,5))", excel: excel(135, LO_LACKS) },
  { formula: "INDEX(SEQUENCE(3,1,0,2),3)", excel: excel(4, LO_LACKS) },
  { formula: "LET(x,2,x*3)", excel: excel(6, LO_LACKS) },
  { formula: "LET(a,A1,b,A2,a+b)", excel: excel(17, LO_LACKS) },
  { formula: 'LET(s,C1,UPPER(s)&"!")', excel: excel("APPLE!", LO_LACKS) },
  { formula: "SUM(UNIQUE(E1:E8))", excel: excel(35, LO_LACKS) },
  { formula: "INDEX(SORT(A1:A5),1)", excel: excel(2, LO_LACKS) },
  { formula: "INDEX(SORT(A1:A5,1,-1),1)", excel: excel(27, LO_LACKS) },
  { formula: "SUM(FILTER(A1:A10,A1:A10>5))", excel: excel(153, LO_LACKS) },
  { formula: 'ROWS(FILTER(C1:C10,LEFT(C1:C10)="a"))', excel: excel(4, LO_LACKS) },
  { formula: "SINGLE(A1:A10)", excel: excel({ error: "#VALUE!" }, `${LO_LACKS}: a column range meets a formula outside its rows`) },
  { formula: "SUM(TAKE(A1:A10,3))", excel: excel(26, LO_LACKS) },
  { formula: "SUM(DROP(A1:A10,8))", excel: excel(100, LO_LACKS) },
];

/** Where LibreOffice's value is not Excel's documented one. */
const LO_ERR_502 = (code: string): CorpusFormula["excel"] => excel({ error: code }, `LibreOffice saves its Err:502 (invalid argument) as #VALUE!; Excel documents ${code}`);
const EXCEL_DIFFERS: Readonly<Record<string, CorpusFormula["excel"]>> = {
  "0^-1": excel({ error: "#DIV/0!" }, "Excel: zero to a negative power is #DIV/0! (LibreOffice says #NUM!)"),
  '"a"<TRUE': excel(true, "Excel orders text before TRUE/FALSE; LibreOffice compares TRUE as the number 1"),
  "1=TRUE": excel(false, "Excel: a number never equals TRUE; LibreOffice compares TRUE as the number 1"),
  "G1&G2": excel({ error: "#DIV/0!" }, "Excel: the first error in the expression wins"),
  'SUM("5",TRUE,1)': excel(7, "Excel: numbers as text and TRUE typed as arguments count (SUM's documentation)"),
  "SQRT(-1)": LO_ERR_502("#NUM!"),
  "LN(0)": LO_ERR_502("#NUM!"),
  "GEOMEAN(A1:A10)": LO_ERR_502("#NUM!"),
  "HARMEAN(A1:A10)": LO_ERR_502("#NUM!"),
  "PERCENTILE(A1:A10,1.5)": LO_ERR_502("#NUM!"),
  "PERCENTILE.INC(A1:A10,1.5)": LO_ERR_502("#NUM!"),
  "LARGE(A1:A10,10)": LO_ERR_502("#NUM!"),
  "SMALL(A1:A10,10)": LO_ERR_502("#NUM!"),
  "VLOOKUP(\"East\",H2:J5,4,FALSE)": LO_ERR_502("#REF!"),
  "INDEX(H1:J5,6,1)": LO_ERR_502("#REF!"),
  "OFFSET(A1,-1,0)": LO_ERR_502("#REF!"),
  "MODE(A1:A10)": excel({ error: "#N/A" }, "Excel: MODE of values that never repeat is #N/A (LibreOffice says #VALUE!)"),
  "MODE.SNGL(A1:A10)": excel({ error: "#N/A" }, "Excel: MODE.SNGL of values that never repeat is #N/A (LibreOffice says #VALUE!)"),
  "MODE(B1:B10)": excel({ error: "#N/A" }, "Excel: MODE of values that never repeat is #N/A (LibreOffice says #VALUE!)"),
  "MODE.SNGL(B1:B10)": excel({ error: "#N/A" }, "Excel: MODE.SNGL of values that never repeat is #N/A (LibreOffice says #VALUE!)"),
  'COUNTIF(A1:B10,"TRUE")': excel(0, "Excel: the criterion TRUE matches only TRUE/FALSE cells, and the range holds none (LibreOffice matches the number 1)"),
  "COUNTIF(B1:B10,TRUE)": excel(0, "Excel: the criterion TRUE matches only TRUE/FALSE cells, and the range holds none (LibreOffice matches the number 1)"),
  "MODE(1,2,3)": excel({ error: "#N/A" }, "Excel: MODE of values that never repeat is #N/A (LibreOffice says #VALUE!)"),
  "CORREL(E1:E3,F1:F4)": excel({ error: "#N/A" }, "Excel: CORREL of arrays of different sizes is #N/A"),
  "RANK(99,A1:A10)": excel({ error: "#N/A" }, "Excel: RANK of a number not in the list is #N/A"),
  "RANK.EQ(99,A1:A10)": excel({ error: "#N/A" }, "Excel: RANK.EQ of a number not in the list is #N/A"),
  "RANK.AVG(99,A1:A10)": excel({ error: "#N/A" }, "Excel: RANK.AVG of a number not in the list is #N/A"),
  "DATE(10000,1,1)": excel({ error: "#NUM!" }, "Excel: a year past 9999 is #NUM!"),
  "DATE(2024,3,1)-DATE(1899,12,31)": excel(-648610, "Excel: DATE adds 1900 to a year below 1900, so 1899 is 3799"),
  "POWER(0,-1)": excel({ error: "#DIV/0!" }, "Excel: zero to a negative power is #DIV/0! (LibreOffice says #NUM!)"),
  "POWER(0,0)": excel({ error: "#NUM!" }, "Excel: 0^0 is #NUM! (LibreOffice says 1)"),
  "@A1:A10": excel({ error: "#VALUE!" }, "Excel: implicit intersection of A1:A10 from a row outside it is #VALUE!"),
  "SUM(@A1:A10)": excel({ error: "#VALUE!" }, "Excel: implicit intersection of A1:A10 from a row outside it is #VALUE!"),
};

export function corpus(): CorpusFormula[] {
  const plain = [...OPERATORS, ...MATH, ...AGGREGATES, ...STATISTICS, ...CRITERIA, ...LOOKUPS, ...TEXT_FUNCTIONS, ...TEXT_FORMATS, ...INFO_LOGIC, ...DATES, ...REFERENCES];
  return [...plain.map((formula): CorpusFormula => {
    const differs = EXCEL_DIFFERS[formula];
    return differs ? { formula, excel: differs } : { formula };
  }), ...DYNAMIC];
}
