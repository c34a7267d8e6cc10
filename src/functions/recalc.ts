/** The one place the functions touch the Excel API: asking for a full recalculation after sign-in. */

/** Recalculates every formula so cells that answered "sign in" fetch their values; no-op outside Excel. */
export async function requestFullRecalculation(): Promise<void> {
  if (typeof Excel === "undefined" || typeof Excel.run !== "function") return;
  await Excel.run(async (context) => {
    context.workbook.application.calculate("Full");
    await context.sync();
  });
}
