/** The pane's few events, typed: panels talk through these instead of calling into each other. */
import type { InstrumentRecord, ReferenceGroup } from "../api";
import type { AddinSettings } from "../auth/settings";
import type { AuthState } from "../auth/token-store";

/** What was loaded after sign-in and is cleared on sign-out. */
export interface PaneLists {
  readonly instruments: readonly InstrumentRecord[];
  readonly references: readonly ReferenceGroup[];
}

export interface PaneEventMap {
  /** The token store changed (sign-in, renewal, sign-out); the session has already configured or reset the functions. */
  auth: AuthState;
  /** Settings were saved (and the token store and client replaced where needed). */
  settings: AddinSettings;
  /** The instrument and reference lists were loaded or cleared. */
  lists: PaneLists;
  /** The lists are being loaded. */
  "lists-loading": undefined;
  /** Loading the lists failed (the error's plain words). */
  "lists-failed": string;
  /** The error log gained an entry or the client's counters moved: redraw them. */
  counters: undefined;
  /** A tab's panel was shown (its id). */
  tab: string;
  /** A symbol to start the formula builder with. */
  build: string;
}

export type PaneEventName = keyof PaneEventMap;

export interface PaneEvents {
  on<K extends PaneEventName>(event: K, listener: (value: PaneEventMap[K]) => void): void;
  emit<K extends PaneEventName>(event: K, value: PaneEventMap[K]): void;
}

export function createPaneEvents(): PaneEvents {
  const listeners = new Map<PaneEventName, ((value: never) => void)[]>();
  return {
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    emit(event, value) {
      for (const listener of listeners.get(event) ?? []) (listener as (value: PaneEventMap[typeof event]) => void)(value);
    },
  };
}
