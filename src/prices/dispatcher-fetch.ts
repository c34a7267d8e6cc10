/**
 * The platform's `fetch` through an undici dispatcher of our own (a certificate authority Node does not trust by
 * itself, a pool size): the one place where undici's fetch types are taken for the DOM's, which they match at run time.
 */
import { type Dispatcher, fetch as undiciFetch } from "undici";

export function dispatcherFetch(dispatcher: Dispatcher): typeof fetch {
  return ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as unknown as typeof fetch;
}
