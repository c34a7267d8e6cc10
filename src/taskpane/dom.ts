/** A small element builder: text always goes in as text, never as HTML. */

type Child = Node | string | number | false | null | undefined;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, "").toLowerCase(), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === "object" ? child : String(child));
  }
  return element;
}

/** The pane page's element `#id`, checked to be of the kind the caller needs (an input, a button). */
export function byId(id: string): HTMLElement;
export function byId<T extends HTMLElement>(id: string, kind: abstract new () => T): T;
export function byId(id: string, kind: abstract new () => HTMLElement = HTMLElement): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the pane page lacks #${id}`);
  if (!(element instanceof kind)) throw new Error(`#${id} of the pane page is not a ${kind.name}`);
  return element;
}

export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((c): c is Node | string | number => c !== undefined && c !== null && c !== false).map((c) => (typeof c === "object" ? c : String(c))));
}

/** Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern). */
export function setUpTabs(tablist: HTMLElement, onSelect: (panelId: string) => void): (panelId: string) => void {
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (panelId: string): void => {
    for (const tab of tabs) {
      const selected = tab.getAttribute("aria-controls") === panelId;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute("aria-controls") ?? "");
      if (panel) panel.hidden = !selected;
    }
    onSelect(panelId);
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => { select(tab.getAttribute("aria-controls") ?? ""); });
    tab.addEventListener("keydown", (event) => {
      const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
      const target = moves[event.key];
      if (target === undefined) return;
      event.preventDefault();
      const next = tabs[(target + tabs.length) % tabs.length];
      next?.focus();
      if (next) select(next.getAttribute("aria-controls") ?? "");
    });
  });
  return select;
}

/** `render` at most once per microtask however often the returned function is called: a recalculation reports many cells at once. */
export function oncePerMicrotask(render: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      render();
    });
  };
}
