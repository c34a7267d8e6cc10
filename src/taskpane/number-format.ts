/** Reading Excel number formats: whether one shows a serial as a date (the pane's Explain and the workbench's grid). */

/** A day, month or year code outside quoted text, brackets and escapes: `yyyy-mm-dd`, `d-mmm`, `[$-409]mmm yy`. */
export function isDateFormat(format: unknown): boolean {
  return typeof format === "string" && format !== "General" && /[dmy]/i.test(format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ""));
}
