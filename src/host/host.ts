/**
 * Entry of host.html: a custom-functions host outside Excel. Query parameters `functions` and `metadata` point at
 * another bundle (tests use fixtures); `timeout` sets the per-call limit in ms. `window.PricesHost` resolves when ready.
 */
import type { PricesHostApi } from "./page-api";
import { startHostPage } from "./page";

declare global {
  interface Window {
    PricesHost?: PricesHostApi;
    PricesHostReady?: Promise<PricesHostApi>;
    PricesHostError?: string;
  }
}

const query = new URLSearchParams(window.location.search);
const timeout = Number(query.get("timeout"));
const status = document.getElementById("status");

window.PricesHostReady = startHostPage({
  metadataUrl: query.get("metadata") ?? "functions.json",
  scriptUrl: query.get("functions") ?? "functions.js",
  ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
}).then(
  (api) => {
    window.PricesHost = api;
    if (status) status.textContent = `ready: ${api.functions.length} functions`;
    return api;
  },
  (error: unknown) => {
    window.PricesHostError = error instanceof Error ? error.message : String(error);
    if (status) status.textContent = `failed: ${window.PricesHostError}`;
    throw error;
  },
);
