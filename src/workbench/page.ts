/** The workbench page's lookups: an element of workbench.html, a cell address the page itself wrote. */
import { parseCellAddress, type CellPosition } from "../formula/a1";

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`workbench.html lacks #${id}`);
  return element as T;
}

export function position(address: string): CellPosition {
  const parsed = parseCellAddress(address);
  if (!parsed) throw new Error(`${address} is not a cell address`);
  return parsed;
}
