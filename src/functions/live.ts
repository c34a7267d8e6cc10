/**
 * PRICES.LIVE: the latest value of a price field, shown at once (from the cache or one batched request) and shown
 * again whenever the live registry finds a newer assessment or a correction of the shown one; Excel's cancel
 * (cell cleared, workbook closed) takes it out of the registry. Where live updates are off (the headless runner),
 * the first value is the cell's value.
 */
import { optionalText } from "./coerce";
import { forInvocation, run, type FunctionsClient, type FunctionsContext } from "./context";
import { priceFieldOf } from "./fields";
import { priceGrid, type PriceRequest } from "./price-functions";
import type { Grid } from "./shape";
import type { LiveRegistry } from "../prices/live-registry";
import type { PriceKey } from "../prices/types";

/** What LIVE reads of Excel's streaming invocation. */
export interface LiveInvocation {
  setResult(value: unknown): void;
  onCanceled?: () => void;
  isInValuePreview?: boolean | string;
}

/** The context's client, noting every price key asked: the keys the cell holds live are those its value asked. */
class KeyNotingContext implements FunctionsContext {
  readonly keys: PriceKey[] = [];
  constructor(private readonly outer: FunctionsContext) {}

  client(): FunctionsClient {
    const client = this.outer.client();
    const keys = this.keys;
    return {
      price: (key, options) => {
        keys.push(key);
        return client.price(key, options);
      },
      history: (key, options) => client.history(key, options),
      instrument: (symbol, fields, options) => client.instrument(symbol, fields, options),
      instruments: (fields, options) => client.instruments(fields, options),
      references: (type, options) => client.references(type, options),
    };
  }
  get makeError() {
    return this.outer.makeError;
  }
  today(): string {
    return this.outer.today();
  }
  get deadlineMs(): number {
    return this.outer.deadlineMs;
  }
  get dateSystem() {
    return this.outer.dateSystem;
  }
  get valueMode() {
    return this.outer.valueMode;
  }
  get dataTypes() {
    return this.outer.dataTypes;
  }
}

/** The value LIVE shows now: PRICE's latest grid of one field (the cell's errors as Excel errors). */
async function latestGrid(context: FunctionsContext, symbols: unknown, request: PriceRequest, currency: unknown, unit: unknown): Promise<Grid> {
  return run(context, () => priceGrid(context, symbols, null, request, currency, unit));
}

export function live(
  context: FunctionsContext,
  registry: (() => LiveRegistry | undefined) | undefined,
  symbols: unknown,
  field: unknown,
  currency: unknown,
  unit: unknown,
  invocation: LiveInvocation,
): void {
  let subscription: { cancel(): void } | undefined;
  let cancelled = false;
  invocation.onCanceled = () => {
    cancelled = true;
    subscription?.cancel();
  };
  const show = (grid: Promise<Grid>): Promise<void> =>
    grid.then(
      (value) => {
        if (!cancelled) invocation.setResult(value);
      },
      (error: unknown) => {
        if (!cancelled) invocation.setResult(error);
      },
    );
  let request: PriceRequest;
  try {
    request = { field: priceFieldOf(optionalText(field, "field")), calculation: "None", dateFormat: "serial" };
  } catch (error) {
    void show(run(context, () => Promise.reject(error)));
    return;
  }
  const noting = new KeyNotingContext(forInvocation(context, invocation));
  void show(latestGrid(noting, symbols, request, currency, unit)).then(() => {
    const held = registry?.();
    // the value preview and a cell already cleared hold nothing live
    const preview = invocation.isInValuePreview === true || invocation.isInValuePreview === "true";
    if (cancelled || !held || preview || noting.keys.length === 0) return;
    // each change shows the grid again: the poll just kept the new answers, so this asks nothing
    subscription = held.subscribe(noting.keys, () => void show(latestGrid(forInvocation(context, undefined), symbols, request, currency, unit)));
  });
}
