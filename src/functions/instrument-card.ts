/** ENTITY: an instrument as an entity whose card shows its fields and latest low, mid and high (`=A1.Mid`). */
import { isNoDataError } from "../prices/errors";
import { symbolOf, toMatrix } from "./coerce";
import { run, type FunctionsContext } from "./context";
import { ArgumentError } from "./errors";
import { entityText, INSTRUMENT_CARD_REQUEST, instrumentEntity, NO_DATA_TYPES } from "./data-types";
import { crossLayout, fillGrid, finish, readItems, type Grid } from "./shape";

/**
 * One entity per symbol, in the symbols' shape. A host without entities (docs/data-types.md) gets the entity's
 * text, the symbol and short description, and sends no price request for it.
 */
export function entity(context: FunctionsContext, symbols: unknown): Promise<Grid> {
  return run(context, async () => {
    const items = readItems(toMatrix(symbols, "symbols"), (cell) => symbolOf(cell));
    const layout = crossLayout(items, [[{ ok: true, value: null }]]);
    const single = layout.rows === 1 && layout.cols === 1;
    const support = context.dataTypes ?? NO_DATA_TYPES;
    const client = context.client();
    const grid = await fillGrid(
      layout,
      async (symbol) => {
        if (symbol === undefined) throw new ArgumentError("symbol is required: give an instrument symbol such as 'MB-AL-0004'");
        const record = await client.instrument(symbol, INSTRUMENT_CARD_REQUEST);
        if (!support.entities) return entityText(record);
        // An instrument not yet assessed still has a card, with its fields only; any other failure is the cell's error.
        const latest = await client.price({ symbol: record.symbol }).catch((error: unknown) => {
          if (isNoDataError(error)) return undefined;
          throw error;
        });
        return instrumentEntity(record, latest, context.dateSystem, support.numbers);
      },
      (symbol) => !single && symbol.ok && symbol.value === undefined,
    );
    return finish(grid, context.makeError);
  });
}
