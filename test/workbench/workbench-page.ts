/**
 * The workbench page as its browser tests reach it: `window.Workbench` read through Playwright, the page's
 * readiness, a wait for a condition, and the pane's iframe. One copy for every workbench test file.
 */
import type { Frame, Page } from "playwright-core";

/** What the workbench page exposes on `window` (scripts/start.ts serves it; src/workbench/workbench.ts sets it). */
export interface WorkbenchApi {
  demo: { symbols: string[]; fromDate: string; historyAnchor: string };
  source(): string;
  settled(): Promise<void>;
  value(address: string): unknown;
  text(address: string): string;
  select(address: string): void;
  entries(): Record<string, unknown>;
  enter(address: string, typed: string): string | undefined;
}

export interface WorkbenchWindow {
  Workbench: WorkbenchApi;
  WorkbenchReady: Promise<unknown>;
}

/** Calls on the workbench of the page `page()` gives (a getter: the page is opened in a `beforeAll`). */
export function workbenchOn(page: () => Page) {
  const settled = (): Promise<void> => page().evaluate(() => (window as unknown as WorkbenchWindow).Workbench.settled());
  return {
    settled,
    valueAt: (address: string): Promise<unknown> => page().evaluate((a) => (window as unknown as WorkbenchWindow).Workbench.value(a), address),
    textAt: (address: string): Promise<string> => page().evaluate((a) => (window as unknown as WorkbenchWindow).Workbench.text(a), address),
    entries: (): Promise<Record<string, unknown>> => page().evaluate(() => (window as unknown as WorkbenchWindow).Workbench.entries()),
    /** Types `typed` into `address`; the refusal's message, or undefined when the cell took it. */
    enter: (address: string, typed: string): Promise<string | undefined> =>
      page().evaluate(([a, t]) => (window as unknown as WorkbenchWindow).Workbench.enter(a, t), [address, typed] as const),
    /** The page's first load done, its sheet settled and the pane's iframe there (after a reload it may come later). */
    async load(): Promise<void> {
      await page().evaluate(() => (window as unknown as WorkbenchWindow).WorkbenchReady);
      await settled();
      await waitFor(async () => Promise.resolve(page().frames().some((f) => f.url().endsWith("/workbench-pane.html"))), "the pane's iframe to load");
    },
    /** The pane's iframe. */
    paneFrame(): Frame {
      const frame = page().frames().find((f) => f.url().endsWith("/workbench-pane.html"));
      if (!frame) throw new Error("the pane's iframe is not loaded");
      return frame;
    },
  };
}

/** Polls `check` until it holds; the timeout is a bound against a hang, not a speed target. */
export async function waitFor(check: () => Promise<boolean>, what: string, timeout = 120_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
