/** The publication state of one instrument, asked through the pane's client: its frequency and recent assessments. */
import { addDays, todayIso } from "../api";
import type { PaneContext } from "./pane-context";
import { PUBLICATION_WINDOW_DAYS, publicationStatus, type Publication } from "./publication";

export async function publicationOf(context: PaneContext, symbol: string): Promise<Publication> {
  const client = context.client();
  const now = context.now();
  const today = todayIso(new Date(now));
  const known = context.lists().instruments.find((i) => i.symbol === symbol);
  const [record, history] = await Promise.all([
    known ? Promise.resolve(known) : client.instrument(symbol),
    // a day past today (UTC): a market east of London may already be on its next day
    client.history({ symbol, fromDate: addDays(today, -PUBLICATION_WINDOW_DAYS), toDate: addDays(today, 1) }),
  ]);
  const assessed = history.prices.filter((p) => history.assessedDates.has(p.date));
  return publicationStatus(assessed, record.frequency, now);
}
