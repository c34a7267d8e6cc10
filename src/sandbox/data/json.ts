/**
 * JSON text written directly into a byte buffer: price bodies are written piece by piece, exactly as
 * `JSON.stringify` would write the same values, without building objects or millions of small strings first.
 */

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { round, abs, max } = Math;
const { isFinite } = Number;

const SCALE = 10_000;
/** Beyond this, scaled values leave the small-integer range; such numbers take the general path. */
const FAST_LIMIT = 2 ** 30;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DIGIT_0 = 0x30;
/** Answers up to this size are sent as strings (see `result`). */
const SMALL_ANSWER = 32 * 1024;
/** Largest buffer kept for reuse between answers. */
const SCRATCH_LIMIT = 8 * 1024 * 1024;

/**
 * A buffer that writers made with it write into, one at a time (the routes answer synchronously), so that
 * middle-sized answers allocate once and leave no large garbage. Each catalogue owns one: a module-level buffer
 * was shared by every server in the process.
 */
export class Scratch {
  buffer = Buffer.allocUnsafe(64 * 1024);
}

/**
 * Whether `value` takes the integer path: at most 4 decimals and below about 100,000. Such a double is the one
 * nearest to n / 10,000, so its shortest round-trip form, which JavaScript prints, is that decimal.
 */
function scaledOf(value: number): number | undefined {
  const scaled = round(value * SCALE);
  return scaled / SCALE === value && abs(scaled) < FAST_LIMIT && scaled !== 0 ? scaled : undefined;
}

/** A growing byte buffer of JSON text. `bytes()` is the text so far (UTF-8). */
export class JsonWriter {
  private buffer: Buffer;
  private at = 0;
  private readonly digits = new Uint8Array(12);
  private scratch: Scratch | undefined;

  /**
   * `expectedBytes` sizes the buffer. A writer made with a `scratch` writes into its buffer and `bytes()` returns
   * an exact copy.
   */
  constructor(expectedBytes = 16 * 1024, scratch?: Scratch) {
    const size = max(256, expectedBytes);
    if (scratch !== undefined && size <= SCRATCH_LIMIT) {
      if (scratch.buffer.length < size) scratch.buffer = Buffer.allocUnsafe(max(size, scratch.buffer.length * 2));
      this.buffer = scratch.buffer;
      this.scratch = scratch;
    } else {
      this.buffer = Buffer.allocUnsafe(size);
      this.scratch = undefined;
    }
  }

  get length(): number {
    return this.at;
  }

  private room(bytes: number): Buffer {
    if (this.at + bytes > this.buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes + 1024));
      this.buffer.copy(bigger, 0, 0, this.at);
      this.buffer = bigger;
      if (this.scratch !== undefined && bigger.length <= SCRATCH_LIMIT) this.scratch.buffer = bigger;
      else this.scratch = undefined;
    }
    return this.buffer;
  }

  /** Bytes already written as JSON elsewhere (a cached piece): `source[start..end)`. */
  copy(source: Buffer, start: number, end: number): this {
    const n = end - start;
    const buffer = this.room(n);
    // Buffer#copy makes a view per call (about a microsecond); a plain loop is faster for record-sized pieces.
    if (n < 4096) {
      let at = this.at;
      for (let i = start; i < end; i++) buffer[at++] = source[i] as number;
    } else {
      source.copy(buffer, this.at, start, end);
    }
    this.at += n;
    return this;
  }

  /** Copies what was written at [start, end) into `target` at `at` (to keep a piece for later answers). */
  copyOut(target: Buffer, at: number, start: number, end: number): void {
    this.buffer.copy(target, at, start, end);
  }

  /**
   * Hands over what was written so far as bytes of its own and goes on in a fresh private buffer of `chunkBytes`:
   * a streamed answer sends one piece while the next is written, and never holds the shared scratch buffer
   * between pieces (other answers use it meanwhile).
   */
  detach(chunkBytes: number): Buffer {
    const piece = this.bytes();
    this.buffer = Buffer.allocUnsafe(max(256, chunkBytes));
    this.scratch = undefined;
    this.at = 0;
    return piece;
  }

  /** Drops what was written after `length` (a piece begun and not needed after all). */
  truncate(length: number): this {
    if (length >= 0 && length <= this.at) this.at = length;
    return this;
  }

  /** Text that is already JSON (punctuation, names, numbers written by hand); any characters. */
  raw(text: string): this {
    const n = text.length;
    const buffer = this.room(n * 3);
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.at += buffer.write(text, this.at, "utf8");
        return this;
      }
      buffer[at++] = code;
    }
    this.at = at;
    return this;
  }

  /** A string literal: quotes, and escapes as `JSON.stringify` writes them. */
  string(text: string): this {
    const n = text.length;
    const buffer = this.room(n + 2);
    let at = this.at;
    buffer[at++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code === QUOTE || code === BACKSLASH || code >= 0x7f) return this.raw(JSON.stringify(text));
      buffer[at++] = code;
    }
    buffer[at++] = QUOTE;
    this.at = at;
    return this;
  }

  /** A number as `JSON.stringify` writes it (non-finite ones as `null`). */
  number(value: number): this {
    const scaled = scaledOf(value);
    if (scaled === undefined) return this.raw(isFinite(value) ? `${value}` : "null");
    const buffer = this.room(24);
    let at = this.at;
    let magnitude = scaled;
    if (scaled < 0) {
      buffer[at++] = 0x2d;
      magnitude = -scaled;
    }
    let fraction = magnitude % SCALE;
    let whole = (magnitude - fraction) / SCALE;
    const digits = this.digits;
    let n = 0;
    do {
      const next = (whole / 10) | 0;
      digits[n++] = whole - next * 10;
      whole = next;
    } while (whole > 0);
    while (n > 0) buffer[at++] = DIGIT_0 + (digits[--n] as number);
    if (fraction > 0) {
      buffer[at++] = 0x2e;
      let places = 4;
      while (fraction % 10 === 0) {
        fraction /= 10;
        places--;
      }
      for (let p = places - 1; p >= 0; p--) {
        const next = (fraction / 10) | 0;
        buffer[at + p] = DIGIT_0 + (fraction - next * 10);
        fraction = next;
      }
      at += places;
    }
    this.at = at;
    return this;
  }

  boolean(value: boolean): this {
    return this.raw(value ? "true" : "false");
  }

  /** Any value through `JSON.stringify` (forecasts, small lists). */
  value(value: unknown): this {
    return this.raw(jsonOrUndefined(value) ?? "null");
  }

  /** The text written so far: a view of the writer's own buffer, or an exact copy out of the shared one. */
  bytes(): Buffer {
    if (this.scratch === undefined) return this.buffer.subarray(0, this.at);
    const copy = Buffer.allocUnsafe(this.at);
    this.buffer.copy(copy, 0, 0, this.at);
    return copy;
  }

  /** `"` + ASCII text known to need no escaping (dates, generated timestamps) + `"`, the parts in order. */
  quotedAscii(first: string, second = ""): this {
    const a = first.length;
    const b = second.length;
    const buffer = this.room(a + b + 2);
    let at = this.at;
    buffer[at++] = QUOTE;
    for (let i = 0; i < a; i++) buffer[at++] = first.charCodeAt(i);
    for (let i = 0; i < b; i++) buffer[at++] = second.charCodeAt(i);
    buffer[at++] = QUOTE;
    this.at = at;
    return this;
  }

  /**
   * The answer to send: a string when small (Node's HTTP layer then writes headers and body in one piece, one
   * TLS record instead of two), bytes when large (no decoding).
   */
  result(): string | Buffer {
    return this.at <= SMALL_ANSWER ? this.text() : this.bytes();
  }

  text(): string {
    return this.buffer.toString("utf8", 0, this.at);
  }
}

/** A number as `JSON.stringify` writes it; the integer path of `JsonWriter.number` as a string. */
/** `JSON.stringify` as it behaves: undefined for undefined, a function or a symbol (its lib type says always a string). */
export function jsonOrUndefined(value: unknown): string | undefined {
  return JSON.stringify(value);
}

export function jsonNumber(value: number): string {
  return new JsonWriter(32).number(value).text();
}
