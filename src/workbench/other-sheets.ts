/**
 * The workbook's sheets other than the grid's Sheet1 (Freeze's `Prices provenance`, or any the pane adds): cells in
 * memory, kept by the workbench page so its sheet tabs can show them; the pane's Excel stand-in reads and writes them.
 */
export type SheetCell = string | number | boolean;

export class OtherSheets {
  private readonly sheets = new Map<string, Map<string, SheetCell>>();
  private readonly listeners = new Set<() => void>();

  names(): string[] {
    return [...this.sheets.keys()];
  }

  has(name: string): boolean {
    return this.sheets.has(name);
  }

  add(name: string): void {
    if (!this.sheets.has(name)) this.sheets.set(name, new Map());
    this.changed();
  }

  remove(name: string): void {
    if (this.sheets.delete(name)) this.changed();
  }

  get(name: string, row: number, col: number): SheetCell {
    return this.sheets.get(name)?.get(`${row},${col}`) ?? "";
  }

  /** Writes cells; "" clears one. */
  write(name: string, cells: readonly { readonly row: number; readonly col: number; readonly value: SheetCell }[]): void {
    const sheet = this.sheets.get(name);
    if (!sheet) throw new Error(`ItemNotFound: no sheet ${name}`);
    for (const { row, col, value } of cells) {
      if (value === "") sheet.delete(`${row},${col}`);
      else sheet.set(`${row},${col}`, value);
    }
    this.changed();
  }

  /** The filled cells' positions. */
  positions(name: string): { row: number; col: number }[] {
    return [...(this.sheets.get(name)?.keys() ?? [])].map((key) => {
      const [row = 0, col = 0] = key.split(",").map(Number);
      return { row, col };
    });
  }

  /** Calls `listener` after every change; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
