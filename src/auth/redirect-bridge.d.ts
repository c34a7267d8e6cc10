/** MSAL's redirect bridge, an `exports` subpath that TypeScript's node10 resolution cannot see (webpack resolves it). */
declare module "@azure/msal-browser/redirect-bridge" {
  export function broadcastResponseToMainFrame(): Promise<void>;
}
