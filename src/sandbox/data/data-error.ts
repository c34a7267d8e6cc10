/** The error of bad sandbox data, which names where it is and what is wrong, and how it shows a value at fault. */

/** A data error that names where it is (`points[12].mid`, `assessments/MB-AL-0004.json[12].mid`) and what is wrong. */
export class DataError extends Error {
  override name = "DataError";
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

/** A value as a message shows it: JSON, cut at 40 characters; `nothing` for a field left out. */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON.stringify gives undefined for what JSON cannot spell (a function given in place of data), whatever its type says.
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return typeof value;
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
