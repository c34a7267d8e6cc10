/**
 * The cells a person typed in the workbench, kept in the page's localStorage so a reload keeps their work (what was
 * typed, never a value or a token): address to text as typed, "" for a demo cell they cleared. Applied over the
 * demo sheet after a reload, with an offer to clear them.
 */
export const TYPED_CELLS_KEY = "prices.workbench.typed";

export interface TypedCellStore {
  /** What was typed, by address, in the order typed. */
  all(): Record<string, string>;
  remember(address: string, typed: string): void;
  forget(): void;
}

export function typedCellStore(storage: Pick<Storage, "getItem" | "setItem" | "removeItem">): TypedCellStore {
  const read = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(TYPED_CELLS_KEY) ?? "{}");
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    } catch {
      // an unreadable entry (another version, a hand edit) is dropped rather than breaking the page
      return {};
    }
  };
  return {
    all: read,
    remember(address, typed) {
      // taken out and put back, the address moves last: the cells are applied in the order typed
      const cells = new Map(Object.entries(read()));
      cells.delete(address);
      cells.set(address, typed);
      try {
        storage.setItem(TYPED_CELLS_KEY, JSON.stringify(Object.fromEntries(cells)));
      } catch {
        // storage full or refused: the edit stands, only the reload will not keep it
      }
    },
    forget() {
      storage.removeItem(TYPED_CELLS_KEY);
    },
  };
}
