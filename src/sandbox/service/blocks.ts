/** The instrument price block (spec 2.2) around a list of records. */
import type { InstrumentPriceBlock, PriceRecord } from "../../api";
import type { InstrumentData } from "../data/model";

/** firstDate and lastDate come from the series; an instrument with no assessment yet shows its launch day. */
export function priceBlock(instrument: InstrumentData, prices: PriceRecord[]): InstrumentPriceBlock {
  const series = instrument.series;
  const launch = `${instrument.record.launchDate}T00:00:00+00:00`;
  return {
    symbol: instrument.record.symbol,
    firstDate: series.length > 0 ? series.assessmentDate(0) : launch,
    lastDate: series.length > 0 ? series.assessmentDate(series.length - 1) : launch,
    prices,
  };
}
