/** The instrument price block (spec 2.2) and the response bodies around price records, written as JSON. */
import type { InvalidInstrument } from "../../api";
import type { JsonWriter } from "../data/json";
import type { InstrumentData } from "../data/model";

function writeTimestamp(out: JsonWriter, instrument: InstrumentData, index: number): void {
  const series = instrument.series;
  if (series.length === 0) out.string(`${instrument.record.launchDate}T00:00:00+00:00`);
  else if (series.writeAssessmentDate !== undefined) series.writeAssessmentDate(index, out);
  else out.string(series.assessmentDate(index));
}

/**
 * Opens a block up to its `prices` list; the records follow, comma-separated, then `writeBlockEnd`.
 * firstDate and lastDate come from the series; an instrument with no assessment yet shows its launch day.
 */
export function writeBlockHead(out: JsonWriter, instrument: InstrumentData): void {
  out.raw('{"symbol":').string(instrument.record.symbol).raw(',"firstDate":');
  writeTimestamp(out, instrument, 0);
  out.raw(',"lastDate":');
  writeTimestamp(out, instrument, instrument.series.length - 1);
  out.raw(',"prices":[');
}

/** Closes a block opened by `writeBlockHead`; `forecast` is written after the records when given. */
export function writeBlockEnd(out: JsonWriter, forecast?: unknown): void {
  out.raw("]");
  if (forecast !== undefined) out.raw(',"forecast":').value(forecast);
  out.raw("}");
}

/** `,"invalidInstruments":[...]` when it holds something, else nothing. */
export function writeInvalid(out: JsonWriter, invalid: readonly InvalidInstrument[]): void {
  if (invalid.length > 0) out.raw(',"invalidInstruments":').value(invalid.map(({ symbol, message }) => ({ symbol, message })));
}
