/**
 * `npm run docs:functions`: writes docs/functions.md from the generated functions.json (built by webpack with
 * custom-functions-metadata): every function, argument, default, enumeration, an example and the errors it gives.
 * `--check` compares instead of writing (exit 1 when the committed file is stale).
 *
 * Descriptions and defaults come from functions.json (so from the JSDoc in src/functions/functions.ts); the
 * examples and error lists below are the only hand-written parts, and a function without them fails the run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = resolve(__dirname, "..");
export const FUNCTIONS_DOC = join(ROOT, "docs/functions.md");

interface EnumValue {
  name?: string;
  stringValue?: string;
  numberValue?: number;
  tooltip?: string;
}
interface Metadata {
  functions: { id: string; name: string; description?: string; parameters: { name: string; description?: string; type?: string; dimensionality?: string; optional?: boolean; repeating?: boolean; customEnumId?: string }[]; result?: { dimensionality?: string } }[];
  enums?: { id: string; type?: string; values: EnumValue[] }[];
}

interface Example {
  readonly formula: string;
  readonly result: string;
}

const EXAMPLES: Readonly<Record<string, readonly Example[]>> = {
  LOW: [{ formula: '=PRICES.LOW("MB-AL-0004")', result: "the latest low price of MB-AL-0004" }],
  MID: [
    { formula: '=PRICES.MID("MB-AL-0004")', result: "the latest mid price" },
    { formula: "=PRICES.MID(A2:A6, B1:E1)", result: "a grid: the symbols in A2:A6 down, the dates in B1:E1 across" },
    { formula: '=PRICES.MID("MB-AL-0004", , "EUR", "LB")', result: "the latest mid in euros per pound, at the rate of the assessment's day" },
  ],
  HIGH: [{ formula: '=PRICES.HIGH("MB-AL-0004", "2024-03-01")', result: "the high of 1 March 2024 (or the latest earlier assessment)" }],
  PRICE: [
    { formula: '=PRICES.PRICE("MB-AL-0004", , "pricingRationale")', result: "the price reporter's explanation of the latest assessment" },
    { formula: '=PRICES.PRICE("MB-AL-0004", "2024-03-15", "mid", "MonthlyAverage")', result: "the March 2024 average to the 15th" },
    { formula: '=PRICES.PRICE("MB-AL-0004", , , , , , , "rich")', result: "the latest mid shown as e.g. 2,431.50 USD/MT and carrying its assessment date, revision, carry-forward, conversion and request (where Excel has data types; a plain number elsewhere)" },
  ],
  LIVE: [
    { formula: '=PRICES.LIVE("MB-AL-0004")', result: "the latest mid, which changes by itself within a minute of the next assessment's publication, and again if the service corrects it (one request per poll for every live cell due; nothing asked between an instrument's due times; docs/client.md, \"Live prices\")" },
    { formula: '=PRICES.LIVE(A2:A20, "high", "EUR")', result: "the latest high of each symbol in A2:A20 in euros, kept up to date; formulas reading these cells recalculate when they change" },
  ],
  HISTORY: [
    { formula: '=PRICES.HISTORY("MB-AL-0004", "2024-01-01")', result: "date, low, mid, high from 1 January 2024 to today, oldest first, with a header row" },
    { formula: '=PRICES.HISTORY("MB-AL-0004", "2024-01-01", "2024-12-31", "date,mid", 0, "Weekdays", , "descending")', result: "every weekday of 2024 (carried forward where not assessed), newest first, no headers. Its first column shows 2024-12-31, 2024-12-30, 2024-12-27, … where Excel has formatted number values; in an older Excel it shows the serials 45657, 45656, 45653, … until the column is given a date format" },
    { formula: '=PRICES.HISTORY(A2, "2023-01-01", , "date,mid", 1, , "MonthlyAverage")', result: "one row per month with its average (A2 holds a symbol)" },
    { formula: '=PRICES.HISTORY("MB-AL-0004", TODAY()-365)', result: "a rolling year: `to` blank is today, so the table moves forward every day" },
  ],
  AVERAGE: [
    { formula: '=PRICES.AVERAGE("MB-AL-0004", "MonthlyAverage")', result: "the current month's average mid to date" },
    { formula: '=PRICES.AVERAGE("MB-AL-0004", "Monthly", "2024-03-15")', result: "the March 2024 average to the 15th (Monthly is short for MonthlyAverage)" },
  ],
  CURVE: [{ formula: '=PRICES.CURVE("MB-AL-0004")', result: "the latest forward curve: code, month, low, mid, high" }],
  FORECAST: [{ formula: '=PRICES.FORECAST("MB-AL-0004")', result: "the F24M forecast: date, low, mid, high" }],
  INSTRUMENT: [
    { formula: '=PRICES.INSTRUMENT("MB-AL-0004", "currency")', result: "the currency's full name, e.g. US Dollar" },
    { formula: '=PRICES.INSTRUMENT("MB-AL-0004")', result: "the whole record as name/value rows" },
  ],
  ENTITY: [
    { formula: '=PRICES.ENTITY("MB-AL-0004")', result: "an instrument card: the cell shows MB-AL-0004 and its short description; click it for its fields and latest low, mid and high (docs/data-types.md)" },
    { formula: "=A2.Mid", result: "the latest mid of the entity in A2 (any card field: A2.Commodity, A2.[Launch date])" },
  ],
  CONVERSIONS: [{ formula: '=PRICES.CONVERSIONS("MB-AL-0004")', result: "kind, id, description of every currency and unit MB-AL-0004's values convert to" }],
  INSTRUMENTS: [
    { formula: '=PRICES.INSTRUMENTS("aluminium")', result: "every instrument you may see whose symbol, descriptions or ids contain aluminium (not other fields: \"weekly\" finds weekly products by their description, not every instrument assessed weekly)" },
    { formula: '=PRICES.INSTRUMENTS("copper cif", "symbol,description,locationId", 0)', result: "copper instruments delivered CIF, three columns, no header row" },
  ],
  REFERENCE: [
    { formula: '=PRICES.REFERENCE("Currency")', result: "the currency list: id, description, sign, conversions" },
    { formula: '=PRICES.REFERENCE("UnitOfMeasure", "MT")', result: "the description of one unit" },
  ],
};

const SYMBOL_ERRORS = [
  "`#N/A` unknown or not permitted symbol 'X': the symbol does not exist or your account may not see it (a trial account sees `MB-` symbols only)",
  "`#VALUE!` … must be an instrument symbol such as 'MB-AL-0004': the symbol argument is not text",
];
const DATE_ERRORS = [
  "`#VALUE!` dates must be a date or YYYY-MM-DD, got '2024-13-01': not a date",
  "`#N/A` no assessment for 'X' on or before DATE: the date is before the instrument's first assessment",
];
const CONVERSION_ERRORS = [
  "`#VALUE!` currency 'XYZ' is not a currency id; valid: USD, EUR, …: an id the service's Currency (or UnitOfMeasure) list does not hold",
  "`#N/A` 'X': Conversion from MT to BU is not available for this instrument: the instrument's values do not convert to that currency or unit (see PRICES.CONVERSIONS)",
  "`#N/A` this service does not offer conversion to EUR: the service refused or ignored the conversion",
];
const ERRORS: Readonly<Record<string, readonly string[]>> = {
  LOW: [...SYMBOL_ERRORS, ...DATE_ERRORS, ...CONVERSION_ERRORS],
  MID: [...SYMBOL_ERRORS, ...DATE_ERRORS, ...CONVERSION_ERRORS],
  HIGH: [...SYMBOL_ERRORS, ...DATE_ERRORS, ...CONVERSION_ERRORS],
  PRICE: [
    ...SYMBOL_ERRORS,
    ...DATE_ERRORS,
    ...CONVERSION_ERRORS,
    "`#VALUE!` field must be one of …: an unknown field name",
    "`#N/A` assessmentPeriod is given only for averages: set calculation",
    "`#N/A` the service sent no FIELD for 'X': an optional field the service did not return",
    "`#VALUE!` values must be one of plain, rich: an unknown values argument",
  ],
  LIVE: [
    ...SYMBOL_ERRORS,
    ...CONVERSION_ERRORS,
    "`#VALUE!` field must be one of …: an unknown field name",
    "`#N/A` the service sent no FIELD for 'X': an optional field the service did not return",
  ],
  HISTORY: [
    ...SYMBOL_ERRORS,
    "`#VALUE!` from is required / must be a date or YYYY-MM-DD; `#VALUE!` from (…) is after to (…)",
    "`#VALUE!` fields must name date, low, mid, high, …: an unknown column name",
    "`#VALUE!` headers must be 0 (none), 1 (names) or 2 (symbol and names)",
    "`#VALUE!` the result would have N cells …: the table is larger than a sheet can hold; shorten the period",
    "`#N/A` no assessment for 'X' from FROM to TO: nothing in the period",
    ...CONVERSION_ERRORS,
  ],
  AVERAGE: [...SYMBOL_ERRORS, ...DATE_ERRORS, "`#VALUE!` period is required: WeeklyAverage, MonthlyAverage, QuarterlyAverage or YearlyAverage", ...CONVERSION_ERRORS],
  CURVE: [...SYMBOL_ERRORS, "`#N/A` 'X' has no forward curve (on DATE): the instrument has no forward curves, or none that day", ...CONVERSION_ERRORS],
  FORECAST: [...SYMBOL_ERRORS, "`#N/A` no forecast 'F24M' for 'X': the instrument has no forecast of that type", ...CONVERSION_ERRORS],
  INSTRUMENT: [...SYMBOL_ERRORS, "`#VALUE!` field must be one of …: an unknown field name", "`#VALUE!` currency 'XYZ' is not a currency id; valid: …", "`#N/A` 'X': no conversion from USD to XYZ"],
  ENTITY: [...SYMBOL_ERRORS],
  CONVERSIONS: [...SYMBOL_ERRORS, "`#N/A` 'X' converts to no other currency or unit"],
  INSTRUMENTS: [
    "`#N/A` no instrument you may see matches 'TEXT'; nothing holds 'WORD': did you mean …?: a word found in none of your instruments, with the close words they hold (a typo)",
    "`#N/A` … 'WORD' is the commodity NAME, which your account does not see: it sees N instruments of … only: the word names a commodity outside your entitlement (a trial account sees metals only)",
    "`#N/A` no instrument is available to you: your account may see no instrument",
    "`#VALUE!` fields must name …: an unknown column",
  ],
  REFERENCE: ["`#VALUE!` type is required: one of Currency, UnitOfMeasure, …", "`#N/A` no TYPE with id 'X'", "`#N/A` the TYPE list is empty"],
};

const COMMON_ERRORS = [
  "`#N/A` sign in from the Prices pane: nobody is signed in, or the sign-in expired and could not be renewed; sign in from the task pane and the cells recalculate",
  "`#N/A` service unreachable: …: the service did not answer after the client's retries (the cause follows: network, timeout, HTTP status)",
  "`#N/A` no answer from the service within 120 s; recalculate to try again: nothing came back in time (no cell stays `#BUSY!`)",
  "`#VALUE!` the service refused the request: …: the service answered 400 to arguments the add-in could not check itself",
];

function isMetadata(value: unknown): value is Metadata {
  return typeof value === "object" && value !== null && Array.isArray((value as { functions?: unknown }).functions);
}

/** The default a description names: `mid (default)`, `serial (Excel dates, default)`, an enum value marked default. */
export function defaultOf(description: string, values: readonly EnumValue[] = []): string | undefined {
  const marked = values.find((value) => /\(default\)/i.test(value.tooltip ?? ""));
  if (marked) return String(marked.stringValue ?? marked.numberValue ?? marked.name);
  // `as text "date,low,mid,high" (default)`: the quoted text is the default, commas and all
  const quoted = /"([^"]*)"\s*\(default\)/i.exec(description);
  if (quoted?.[1] !== undefined) return quoted[1];
  const inner = /(\S+) \([^()]*,\s*default\)/i.exec(description);
  if (inner?.[1]) return inner[1];
  const plain = /([^,;.()]+?)\s*\(default\)/i.exec(description);
  if (plain?.[1]) return plain[1].trim().replace(/^(or|and)\s+/i, "");
  // `...; default symbol, description, currencyId.`: a default named in words after the word itself
  const named = /(?:^|[;.]\s*)default ([^;()]+?)\.?$/i.exec(description);
  return named?.[1]?.trim();
}

/**
 * What each value of a parameter's list means for this function. The `headers` list is shared by every table
 * function, but what its row 2 holds is each function's own (the symbol, the symbol and date, the search text, the
 * type), so its words come from the parameter's description: `..., 2 search text and column names.`
 */
export function valueWords(parameterName: string, description: string, values: readonly EnumValue[]): string[] {
  const own = parameterName === "headers" ? /\b2 ([^.;]+)/.exec(description)?.[1] : undefined;
  return values.map((v) => {
    const value = String(v.stringValue ?? v.numberValue ?? v.name);
    const tooltip = value === "2" && own !== undefined ? `${own.charAt(0).toUpperCase()}${own.slice(1)}` : v.tooltip?.replace(/\.$/, "");
    return `\`${value}\`${tooltip ? ` ${tooltip}` : ""}`;
  });
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderFunctionDocs(json: unknown): string {
  if (!isMetadata(json)) throw new Error("functions.json must hold a functions array");
  const enums = new Map((json.enums ?? []).map((item) => [item.id, item.values]));
  const out: string[] = [
    "# PRICES functions",
    "",
    "<!-- Generated by `npm run docs:functions` from dist/functions.json (the JSDoc of src/functions/functions.ts); do not edit by hand. -->",
    "",
    "Every function returns a value or a spilled array (like `STOCKHISTORY`): type it in one cell and the result fills the cells right and down.",
    "Dates go in as Excel dates, `YYYY-MM-DD` text, blank or `\"latest\"`. Dates come out as dates where Excel keeps a number's own format (formatted number values: Excel with the CustomFunctionsRuntime 1.4 and ExcelApi 1.16 requirement sets, as Microsoft 365 and Excel on the web have): the cell holds the date's serial carrying the format `yyyy-mm-dd` (`yyyy-mm-dd hh:mm` for a date-time), header row or not, and calculates as the serial. In an older Excel they come out as plain serial numbers (format the cells as dates: Home > Number Format > Short Date). `dateFormat` \"text\" gives `YYYY-MM-DD` text in every Excel.",
    "A symbol or date argument may be a range: the result is then a grid, and an error fills only its own cells.",
    "",
    "| Function | What it returns |",
    "|---|---|",
    ...json.functions.map((fn) => `| [PRICES.${fn.name}](#prices${fn.name.toLowerCase()}) | ${cell(fn.description ?? "")} |`),
    "",
    "## Errors every function can give",
    "",
    ...COMMON_ERRORS.map((text) => `- ${text}`),
    "",
  ];
  for (const fn of json.functions) {
    const examples = EXAMPLES[fn.id];
    const errors = ERRORS[fn.id];
    if (!examples || !errors) throw new Error(`scripts/gen-function-docs.ts has no example or error list for ${fn.id}: add them`);
    const signature = fn.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name) + (p.repeating ? ", …" : "")).join(", ");
    out.push(`## PRICES.${fn.name}`, "", fn.description ?? "", "", "```", `=PRICES.${fn.name}(${signature})`, "```", "");
    out.push("| Argument | Type | Required | Default | Description |", "|---|---|---|---|---|");
    for (const p of fn.parameters) {
      const values = p.customEnumId ? (enums.get(p.customEnumId) ?? []) : [];
      const type = `${p.type === "any" || p.type === undefined ? "text, number or date" : p.type}${p.dimensionality === "matrix" ? " or a range" : ""}`;
      const fallback = p.optional ? (defaultOf(p.description ?? "", values) ?? "blank") : "";
      const choices = values.length > 0 ? `<br>Values: ${valueWords(p.name, p.description ?? "", values).join("; ")}` : "";
      out.push(`| ${p.name} | ${cell(type)} | ${p.optional ? "no" : "yes"} | ${cell(fallback)} | ${cell(p.description ?? "")}${cell(choices)} |`);
    }
    out.push("", "Examples:", "");
    for (const example of examples) out.push(`- \`${example.formula}\`: ${example.result}`);
    out.push("", "Errors:", "");
    for (const error of errors) out.push(`- ${error}`);
    out.push("");
  }
  return out.join("\n");
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, options: { check: { type: "boolean", default: false } }, allowPositionals: true });
  const input = positionals[0] ?? join(ROOT, "dist/functions.json");
  const text = renderFunctionDocs(JSON.parse(readFileSync(input, "utf8")) as unknown);
  if (values.check) {
    const current = readFileSync(FUNCTIONS_DOC, "utf8");
    if (current !== text) {
      process.stderr.write("docs/functions.md is stale: run npm run build && npm run docs:functions\n");
      return 1;
    }
    process.stdout.write("docs/functions.md is up to date\n");
    return 0;
  }
  writeFileSync(FUNCTIONS_DOC, text);
  process.stdout.write(`wrote ${FUNCTIONS_DOC} from ${input}\n`);
  return 0;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
