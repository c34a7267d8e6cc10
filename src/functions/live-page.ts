/** Follows the page's visibility and connection for live cells: hidden or offline pauses them, back resumes them. */

/** What the follower needs of the functions' hook. */
export interface LivePauseTarget {
  setLivePaused(reason: "hidden" | "offline", paused: boolean): void;
}

/**
 * Listens on the page (no-op outside a browser page, e.g. a test under Node). In Excel's shared runtime the page is
 * hidden whenever the pane is closed while the cells still show, so there only the connection pauses.
 */
export function followPageState(target: LivePauseTarget): void {
  if (typeof document === "undefined" || typeof window === "undefined") return;
  const inOffice = "Office" in window;
  const visibility = (): void => { target.setLivePaused("hidden", document.visibilityState === "hidden"); };
  const connection = (): void => { target.setLivePaused("offline", typeof navigator !== "undefined" && !navigator.onLine); };
  if (!inOffice) document.addEventListener("visibilitychange", visibility);
  window.addEventListener("online", connection);
  window.addEventListener("offline", connection);
  if (!inOffice) visibility();
  connection();
}
