/** Progress lines from long runs: at most one a second, however often asked, so a long synchronous loop can ask at every step. */

/**
 * Logs at most one line per `intervalMs`, however often it is called (Date.now() per call: a few ns). A message
 * that costs something to say is given as a function, called only when its line is due.
 */
export function throttled(log: (message: string) => void, intervalMs = 1000): (message: string | (() => string)) => void {
  let last = Date.now();
  return (message) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    log(typeof message === "string" ? message : message());
  };
}
