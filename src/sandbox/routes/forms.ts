/**
 * Form bodies to parameters (conventions 2, 3): `application/x-www-form-urlencoded` and `multipart/form-data`.
 * Fields land on objects without a prototype, so that `constructor`, `toString` or `__proto__` are names like any
 * other (ignored when unknown, as in a query) and never reach or replace what `{}` inherits.
 */
import { ProblemError } from "../service/problems";
import { malformedBody } from "../service/errors";

/** Field name to its value, or its values in order when repeated; no prototype. */
export type FormFields = Record<string, string | string[]>;

export interface MultipartLimits {
  /** Fields with a value (not files). */
  fields: number;
  /** Bytes of one field's value. */
  fieldSize: number;
  /** Files, read and forgotten: they carry no parameters. */
  files: number;
  /** Parts of any kind. */
  parts: number;
}

export const MULTIPART_LIMITS: Readonly<MultipartLimits> = { fields: 1000, fieldSize: 1_000_000, files: 20, parts: 1100 };

function emptyForm(): FormFields {
  return Object.create(null) as FormFields;
}

function addField(form: FormFields, name: string, value: string): void {
  const existing = Object.hasOwn(form, name) ? form[name] : undefined;
  if (existing === undefined) form[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else form[name] = [existing, value];
}

/** `a=1&a=2` into `{ a: ["1", "2"] }`; never throws on bad escapes (URLSearchParams keeps them as written). */
export function parseUrlEncodedForm(body: string): FormFields {
  const form = emptyForm();
  for (const [name, value] of new URLSearchParams(body)) addField(form, name, value);
  return form;
}

function overLimit(what: string): ProblemError {
  return new ProblemError(413, `The multipart form body is over the limit of ${what}`, [{ parameter: "body", message: "is too large" }]);
}

/** A parameter of a header value (`name="x"`, `name=x` or RFC 5987 `name*=utf-8''x`), or undefined. */
function headerParameter(value: string, wanted: string): string | undefined {
  const pattern = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  let extended: string | undefined;
  let plain: string | undefined;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
    const key = (match[1] ?? "").toLowerCase();
    const raw = (match[2] ?? "").trim();
    if (key === `${wanted}*`) {
      const encoded = /^[^']*'[^']*'(.*)$/.exec(raw)?.[1];
      if (encoded !== undefined) {
        try {
          extended = decodeURIComponent(encoded);
        } catch {
          extended = encoded;
        }
      }
    } else if (key === wanted && plain === undefined) {
      plain = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
    }
  }
  return extended ?? plain;
}

/** The boundary of a `multipart/form-data` media type, or undefined. */
export function boundaryOf(contentType: string): string | undefined {
  const boundary = headerParameter(contentType, "boundary");
  return boundary === undefined || boundary === "" || boundary.length > 70 ? undefined : boundary;
}

interface PartHeaders {
  name: string | undefined;
  isFile: boolean;
}

/** Reads a part's headers (latin1 text, folded lines joined); only Content-Disposition matters here. */
function partHeaders(text: string): PartHeaders {
  const lines = text.split("\r\n").reduce<string[]>((joined, line) => {
    const last = joined.length - 1;
    const previous = joined[last];
    if (/^[ \t]/.test(line) && previous !== undefined) joined[last] = `${previous} ${line.trim()}`;
    else joined.push(line);
    return joined;
  }, []);
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw malformedBody();
    if (line.slice(0, colon).trim().toLowerCase() !== "content-disposition") continue;
    // Browsers send names as UTF-8 bytes; the header was read as latin1, one character a byte.
    const value = Buffer.from(line.slice(colon + 1), "latin1").toString("utf8").trim();
    if (!/^form-data\s*(;|$)/i.test(value)) return { name: undefined, isFile: false };
    return { name: headerParameter(value, "name"), isFile: headerParameter(value, "filename") !== undefined };
  }
  return { name: undefined, isFile: false };
}

/**
 * A `multipart/form-data` body (RFC 7578) to its fields; files are skipped. An empty body is an empty form; a body
 * that is not multipart is a 400 problem naming `body`, one over a limit a 413.
 */
export function parseMultipartForm(body: Buffer, contentType: string, limits: MultipartLimits = MULTIPART_LIMITS): FormFields {
  const form = emptyForm();
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) throw malformedBody();
  if (body.length === 0) return form;
  // One character a byte: positions in the text are positions in the buffer.
  const text = body.toString("latin1");
  const delimiter = `--${boundary}`;
  const separator = `\r\n${delimiter}`;
  let at = text.startsWith(delimiter) ? 0 : text.indexOf(separator);
  if (at < 0) throw malformedBody();
  if (at > 0) at += 2;
  let position = at + delimiter.length;
  let parts = 0;
  let fields = 0;
  let files = 0;
  for (;;) {
    if (text.startsWith("--", position)) return form;
    while (text[position] === " " || text[position] === "\t") position++;
    if (!text.startsWith("\r\n", position)) throw malformedBody();
    position += 2;
    const end = text.indexOf(separator, position);
    if (end < 0) throw malformedBody();
    if (++parts > limits.parts) throw overLimit(`${limits.parts} parts`);
    let contentStart: number;
    let headers: PartHeaders;
    if (text.startsWith("\r\n", position)) {
      headers = { name: undefined, isFile: false };
      contentStart = position + 2;
    } else {
      const headerEnd = text.indexOf("\r\n\r\n", position);
      if (headerEnd < 0 || headerEnd > end) throw malformedBody();
      headers = partHeaders(text.slice(position, headerEnd));
      contentStart = headerEnd + 4;
    }
    if (headers.isFile) {
      if (++files > limits.files) throw overLimit(`${limits.files} files`);
    } else if (headers.name !== undefined) {
      if (++fields > limits.fields) throw overLimit(`${limits.fields} fields`);
      if (end - contentStart > limits.fieldSize) throw overLimit(`${limits.fieldSize} bytes a field`);
      addField(form, headers.name, body.toString("utf8", contentStart, end));
    }
    position = end + separator.length;
  }
}
