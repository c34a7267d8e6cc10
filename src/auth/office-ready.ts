/**
 * The one "wait for Office": outside Office, `Office.onReady` still resolves (host null); the wait only guards a
 * missing or stalled office.js. 5 s, the longer of the two the pane and the dialog had: in a working Office it costs
 * nothing, and a slow Office (a cold Excel on the web) must not be taken for none.
 */
export const OFFICE_READY_TIMEOUT_MS = 5_000;

export async function officeReady(): Promise<void> {
  const office = (globalThis as { Office?: typeof Office }).Office;
  if (!office?.onReady) return;
  await Promise.race([office.onReady(), new Promise((resolve) => setTimeout(resolve, OFFICE_READY_TIMEOUT_MS))]);
}
