/** The cells typed before a reload, put back over the demo sheet, with the offer to clear them (back to the demo). */
import { parseCellAddress } from "../formula/a1";
import type { BookContent, EntrySheet } from "./cells";
import { byId } from "./page";
import type { TypedCellStore } from "./typed-cells";

export interface TypedOfferParts {
  readonly store: TypedCellStore;
  readonly sheet: EntrySheet;
  /** The demo sheet's cells, to go back to ({} while it has not loaded). */
  readonly demoCells: () => Readonly<Record<string, BookContent>>;
  readonly recalculate: () => Promise<void>;
}

/** Wires the offer's clear button; returns the way to put the typed cells back. */
export function typedOffer(parts: TypedOfferParts): () => void {
  const offer = byId("typed-offer");
  byId("typed-offer-clear").addEventListener("click", () => {
    parts.store.forget();
    parts.sheet.load(parts.demoCells());
    offer.hidden = true;
    void parts.recalculate();
  });
  return () => {
    const cells = Object.entries(parts.store.all());
    for (const [address, typed] of cells) {
      const at = parseCellAddress(address);
      if (at) parts.sheet.enter(at, typed);
    }
    offer.hidden = cells.length === 0;
    byId("typed-offer-text").textContent = `${cells.length} ${cells.length === 1 ? "cell" : "cells"} you typed before the reload ${cells.length === 1 ? "is" : "are"} kept.`;
  };
}
