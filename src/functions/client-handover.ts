/**
 * The moment between a sign-in and the client it hands the functions (the pane opens the user's persistent cache
 * first, seconds on a slow machine): a call made then waits for that client instead of answering "sign in" to a
 * signed-in user. The page settles it with the client, or with a sign-out; until then it holds no timer of its own
 * (the page's wait is bounded, and every call keeps its cell's deadline).
 */
import type { AskOptions } from "../prices/types";
import type { FunctionsClient } from "./context";
import { NotAvailableError, SIGN_IN_MESSAGE } from "./errors";

export class ClientHandover {
  private readonly given: Promise<FunctionsClient>;
  private give: (client: FunctionsClient) => void = () => undefined;
  private refuse: (error: Error) => void = () => undefined;

  constructor(private readonly now: () => number = Date.now) {
    this.given = new Promise<FunctionsClient>((resolve, reject) => {
      this.give = resolve;
      this.refuse = reject;
    });
    // nobody may have waited: a sign-out then is no unhandled rejection
    this.given.catch(() => undefined);
  }

  /** The client handed over: every waiting call goes on with it. */
  complete(client: FunctionsClient): void {
    this.give(client);
  }

  /** Signed out before the handover: every waiting call answers "sign in". */
  cancel(): void {
    this.refuse(new NotAvailableError(SIGN_IN_MESSAGE));
  }

  /** A client whose every ask waits for the handover, then asks with the time its caller has left. */
  client(): FunctionsClient {
    const later = async <T>(options: AskOptions | undefined, ask: (client: FunctionsClient, options: AskOptions | undefined) => Promise<T>): Promise<T> => {
      const asked = this.now();
      const client = await this.given;
      const timeLeftMs = options?.timeLeftMs;
      return ask(client, timeLeftMs === undefined ? options : { ...options, timeLeftMs: Math.max(0, timeLeftMs - (this.now() - asked)) });
    };
    return {
      price: (key, options) => later(options, (client, left) => client.price(key, left)),
      history: (key, options) => later(options, (client, left) => client.history(key, left)),
      instrument: (symbol, fields, options) => later(options, (client, left) => client.instrument(symbol, fields, left)),
      instruments: (fields, options) => later(options, (client, left) => client.instruments(fields, left)),
      references: (type, options) => later(options, (client, left) => client.references(type, left)),
    };
  }
}
