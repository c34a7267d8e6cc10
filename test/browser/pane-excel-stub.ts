/**
 * A small Excel for the pane's browser test, injected before office.js: one sheet of cells, a
 * selection, the `Excel.run` subset the pane and the functions use, and a `CustomFunctions`
 * registry so an inserted `=PRICES.*` formula is evaluated by the real functions.js (literal
 * arguments only). Everything the pane does to the workbook is recorded in `window.__excel`.
 */
export const EXCEL_STUB = String.raw`
(() => {
  const cells = new Map();
  const functions = new Map();
  const state = { selection: "A1", inserted: [], calculations: [], evaluations: 0, jumps: [] };
  let metadata;

  const colNumber = (letters) => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  const colLetters = (n) => { let s = ""; while (n > 0) { const r = (n - 1) % 26; s = String.fromCharCode(65 + r) + s; n = Math.floor((n - 1) / 26); } return s; };
  const parseCell = (a) => { const m = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(a); return { col: colNumber(m[1]), row: Number(m[2]) }; };
  const area = (address) => {
    const local = address.includes("!") ? address.slice(address.lastIndexOf("!") + 1) : address;
    const [a, b] = local.split(":");
    const p = parseCell(a), q = parseCell(b ?? a);
    return { top: Math.min(p.row, q.row), left: Math.min(p.col, q.col), bottom: Math.max(p.row, q.row), right: Math.max(p.col, q.col) };
  };
  const name = (row, col) => colLetters(col) + row;
  /** The array result covering a cell, as Excel spills it: its anchor and the element there (the anchor itself included). */
  const spillAt = (row, col) => {
    for (const [key, cell] of cells) {
      if (!Array.isArray(cell.value) || typeof cell.formula !== "string") continue;
      const p = parseCell(key);
      const r = row - p.row, c = col - p.col;
      if (r >= 0 && c >= 0 && r < cell.value.length && c < (cell.value[0] || []).length) return { anchor: key, value: cell.value[r][c] ?? "" };
    }
    return undefined;
  };
  const selectionHandlers = new Set();

  function splitArgs(body) {
    const out = []; let cur = ""; let quoted = false;
    for (let i = 0; i < body.length; i++) {
      const ch = body[i];
      if (ch === '"') { if (quoted && body[i + 1] === '"') { cur += '""'; i++; continue; } quoted = !quoted; cur += ch; continue; }
      if (ch === "," && !quoted) { out.push(cur.trim()); cur = ""; continue; }
      cur += ch;
    }
    out.push(cur.trim());
    return body.trim() === "" ? [] : out;
  }
  const literal = (token) => {
    if (token === "") return null;
    if (token.startsWith('"')) return token.slice(1, -1).replace(/""/g, '"');
    if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token);
    if (/^(TRUE|FALSE)$/i.test(token)) return token.toUpperCase() === "TRUE";
    const ref = cells.get(token.toUpperCase());
    return ref ? ref.value : null;
  };

  async function evaluate(key) {
    const cell = cells.get(key);
    if (!cell || typeof cell.formula !== "string") return;
    const m = /^=PRICES\.([A-Z]+)\((.*)\)$/i.exec(cell.formula);
    if (!m) { cell.value = "#NAME?"; return; }
    metadata = metadata || (await (await fetch("functions.json")).json());
    const fnName = m[1].toUpperCase();
    const fn = functions.get(fnName);
    const meta = metadata.functions.find((f) => f.id === fnName);
    if (!fn || !meta) { cell.value = "#NAME?"; return; }
    const args = splitArgs(m[2]).map(literal);
    const shaped = meta.parameters.map((p, i) => {
      const v = i < args.length ? args[i] : null;
      return p.dimensionality === "matrix" ? (v === null ? null : [[v]]) : v;
    });
    state.evaluations++;
    try {
      const result = await fn(...shaped);
      cell.value = Array.isArray(result) ? result : [[result]];
    } catch (error) {
      cell.value = (error && error.code ? error.code : "#N/A") + ": " + (error && error.message ? error.message : String(error));
    }
  }
  const running = new Set();
  const track = (promise) => { running.add(promise); promise.finally(() => running.delete(promise)); return promise; };
  const evaluateAll = (filter) => track(Promise.all([...cells.keys()].filter(filter || (() => true)).map(evaluate)));

  class RangeProxy {
    constructor(address) { this.localAddress = address.includes("!") ? address.slice(address.lastIndexOf("!") + 1) : address; this.isNullObject = false; }
    get address() { return "Sheet1!" + this.localAddress; }
    get box() { return area(this.localAddress); }
    get rowCount() { return this.box.bottom - this.box.top + 1; }
    get columnCount() { return this.box.right - this.box.left + 1; }
    get rowIndex() { return this.box.top - 1; }
    get columnIndex() { return this.box.left - 1; }
    get values() { return this.gridAt((r, c) => { const cell = cells.get(name(r, c)); if (cell) { const v = cell.value; return Array.isArray(v) ? v[0][0] : v ?? ""; } const s = spillAt(r, c); return s ? s.value : ""; }); }
    get formulas() { return this.gridAt((r, c) => { const cell = cells.get(name(r, c)); if (cell) return cell.formula ?? cell.value ?? ""; const s = spillAt(r, c); return s ? s.value : ""; }); }
    gridAt(pick) { const b = this.box; const rows = []; for (let r = b.top; r <= b.bottom; r++) { const row = []; for (let c = b.left; c <= b.right; c++) row.push(pick(r, c)); rows.push(row); } return rows; }
    getSpillParentOrNullObject() { const b = this.box; const s = cells.has(name(b.top, b.left)) && !Array.isArray(cells.get(name(b.top, b.left)).value) ? undefined : spillAt(b.top, b.left); return s ? new RangeProxy(s.anchor) : { isNullObject: true, load() { return this; } }; }
    set formulas(grid) {
      const b = this.box;
      grid.forEach((row, i) => row.forEach((f, j) => {
        const key = name(b.top + i, b.left + j);
        cells.set(key, { formula: f, value: undefined });
        state.inserted.push({ address: "Sheet1!" + key, formula: f });
        state.pending.push(track(evaluate(key)));
      }));
    }
    getCell(r, c) { const b = this.box; return new RangeProxy(name(b.top + r, b.left + c)); }
    load() { return this; }
    select() { state.selection = this.localAddress; state.jumps.push(this.address); for (const handler of selectionHandlers) handler({ address: this.localAddress }); }
    calculate() { state.calculations.push({ scope: "range", address: this.address }); const b = this.box; state.pending.push(evaluateAll((k) => { const p = parseCell(k); return p.row >= b.top && p.row <= b.bottom && p.col >= b.left && p.col <= b.right; })); }
  }
  const usedRange = () => {
    if (cells.size === 0) return { isNullObject: true, load() { return this; } };
    const keys = [...cells.keys()].map(parseCell);
    const top = Math.min(...keys.map((k) => k.row)), bottom = Math.max(...keys.map((k) => k.row));
    const left = Math.min(...keys.map((k) => k.col)), right = Math.max(...keys.map((k) => k.col));
    return new RangeProxy(name(top, left) + ":" + name(bottom, right));
  };
  const sheet = {
    name: "Sheet1",
    getUsedRangeOrNullObject: usedRange,
    getRange: (a) => new RangeProxy(a),
    activate: () => undefined,
    calculate: (markAllDirty) => { state.calculations.push({ scope: "sheet", markAllDirty }); state.pending.push(evaluateAll()); },
  };
  state.pending = [];
  const workbook = {
    getSelectedRange: () => new RangeProxy(state.selection),
    worksheets: { getActiveWorksheet: () => sheet, getItem: () => sheet, items: [sheet], load() { return this; } },
    onSelectionChanged: { add: (handler) => { selectionHandlers.add(handler); return { context: {}, remove: () => selectionHandlers.delete(handler) }; } },
    application: { calculate: (type) => { state.calculations.push({ scope: "workbook", type: String(type) }); state.pending.push(evaluateAll()); } },
  };
  window.Excel = {
    CalculationType: { full: "Full", recalculate: "Recalculate", fullRebuild: "FullRebuild" },
    run: async (first, second) => (typeof first === "function" ? first : second)({ workbook, sync: async () => { const pending = state.pending.splice(0); await Promise.all(pending); } }),
  };
  // office.js replaces associate with its own on load; a setter that ignores it keeps this registry in charge
  const customFunctions = {
    ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A", divisionByZero: "#DIV/0!", invalidNumber: "#NUM!", nullReference: "#NULL!", invalidName: "#NAME?", invalidReference: "#REF!" },
    Error: class extends Error { constructor(code, message) { super(message || code); this.code = code; } },
  };
  Object.defineProperty(customFunctions, "associate", { get: () => (id, fn) => functions.set(String(id).toUpperCase(), fn), set: () => undefined, enumerable: true });
  Object.defineProperty(window, "CustomFunctions", { get: () => customFunctions, set: () => undefined, configurable: true });
  window.__excel = {
    state,
    registered: () => [...functions.keys()],
    select: (address) => { state.selection = address; for (const handler of selectionHandlers) handler({ address }); },
    set: (address, value) => { cells.set(address.toUpperCase(), { value }); },
    value: (address) => { const c = cells.get(address.toUpperCase()); return c ? c.value : undefined; },
    settle: async () => { while (running.size) await Promise.all([...running]); },
  };
})();
`;
