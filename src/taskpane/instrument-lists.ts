/** The instrument list and the reference lists, loaded once after sign-in and dropped on sign-out. */
import { INSTRUMENT_FIELD_NAMES, REFERENCE_TYPES } from "../api";
import type { PaneContext } from "./pane-context";
import type { PaneLists } from "./pane-events";

/** Instrument fields asked with the list, so search and detail show full names without more requests. */
const LIST_FIELDS = [...INSTRUMENT_FIELD_NAMES];

export const EMPTY_LISTS: PaneLists = { instruments: [], references: [] };

export interface ListsHolder {
  current(): PaneLists;
}

/** Listens to sign-in and sign-out; emits `lists` whenever the lists change. `context.lists` reads `current`. */
export function trackInstrumentLists(context: PaneContext): ListsHolder {
  let lists = EMPTY_LISTS;
  const set = (next: PaneLists): void => {
    lists = next;
    context.events.emit("lists", lists);
  };

  async function load(): Promise<void> {
    context.events.emit("lists-loading", undefined);
    try {
      const client = context.client();
      const [instruments, references] = await Promise.all([client.instruments(LIST_FIELDS), Promise.all(REFERENCE_TYPES.map((type) => client.references(type)))]);
      set({ instruments, references });
    } catch (error) {
      context.events.emit("lists-failed", context.recordError("instrument list", error));
    }
  }

  context.events.on("auth", (state) => {
    if (state.status === "signed-in") {
      if (lists.instruments.length === 0) void load();
    } else {
      set(EMPTY_LISTS);
    }
  });
  return { current: () => lists };
}
