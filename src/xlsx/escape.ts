/**
 * The one escaper of markup, three uses that legitimately differ:
 * - `escapeText`: XML character data of a package part (`&`, `<`, `>`), as Excel writes it, so an untouched
 *   string round-trips byte for byte;
 * - `escapeAttribute`: an XML attribute value in double quotes: `"` too, and tab, line feed and carriage
 *   return as character references (an XML parser would fold them to spaces otherwise);
 * - `escapeMarkup`: HTML or inline SVG built as a string (the sandbox's sign-in pages, the workbench's chart):
 *   `& < > " '` as numeric references, safe in text and in an attribute quoted either way.
 */

export function escapeText(text: string): string {
  // most values (numbers, addresses) need nothing: one test instead of three replacements
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttribute(text: string): string {
  if (!/[&<>"\n\r\t]/.test(text)) return text;
  return escapeText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}

export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
