/** The workbench page's lookups: an element of workbench.html, a cell address the page itself wrote. */
import { parseCellAddress, type CellPosition } from "../formula/a1";

/** workbench.html's element `#id`, checked to be of the kind the caller needs (an input, a frame). */
export function byId(id: string): HTMLElement;
export function byId<T extends HTMLElement>(id: string, kind: abstract new () => T): T;
export function byId(id: string, kind: abstract new () => HTMLElement = HTMLElement): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`workbench.html lacks #${id}`);
  if (!(element instanceof kind)) throw new Error(`#${id} of workbench.html is not a ${kind.name}`);
  return element;
}

export function position(address: string): CellPosition {
  const parsed = parseCellAddress(address);
  if (!parsed) throw new Error(`${address} is not a cell address`);
  return parsed;
}
