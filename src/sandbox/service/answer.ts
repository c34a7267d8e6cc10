/**
 * Price answers written piece by piece (issue 10, bounded memory): a body is a generator that writes JSON into a
 * writer and pauses at record boundaries once a piece is full. A body that ends within `WHOLE_ANSWER_BYTES` is sent
 * whole; a larger one is streamed, each piece written only when the client has taken the one before, so that
 * memory per answer stays about one piece whatever its size.
 */
import { Readable } from "node:stream";
import { JsonWriter } from "../data/json";

/** Bytes written before a body pauses: one piece of a streamed answer. */
export const PIECE_BYTES = 64 * 1024;
/** Answers up to this size are built whole (one write with Content-Length); larger ones are streamed. */
export const WHOLE_ANSWER_BYTES = 2 * 1024 * 1024;

/** Writes a body into `out`, pausing (`yield`) at a record boundary whenever `full(out)` says so. */
export type BodyWriter = Generator<void, void, void>;

/** True once the writer holds a piece's worth: where a body pauses. */
export function full(out: JsonWriter): boolean {
  return out.length >= PIECE_BYTES;
}

function* pieces(first: Buffer, body: BodyWriter, out: JsonWriter): Generator<Buffer, void, void> {
  yield first;
  for (;;) {
    const step = body.next();
    const piece = out.detach(PIECE_BYTES * 2);
    if (piece.length > 0) yield piece;
    if (step.done === true) return;
  }
}

/**
 * Runs a body to its end, or until it passes `WHOLE_ANSWER_BYTES`: then the rest is written as the returned
 * stream is read. Errors the body throws before its first pause (limits, bad parameters) reach the caller.
 */
export function answerFrom(out: JsonWriter, body: BodyWriter, wholeBytes = WHOLE_ANSWER_BYTES): string | Buffer | Readable {
  for (;;) {
    const step = body.next();
    if (step.done === true) return out.result();
    if (out.length > wholeBytes) break;
  }
  return Readable.from(pieces(out.detach(PIECE_BYTES * 2), body, out), { objectMode: false, highWaterMark: PIECE_BYTES });
}
