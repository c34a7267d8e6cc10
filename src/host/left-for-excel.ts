/** The signal that stops a run meeting something it cannot evaluate with Excel's semantics, for the evaluator and the worksheet functions alike. */

/** A run met something it cannot evaluate with Excel's semantics: the formula keeps Excel's value. */
export class LeftForExcelSignal extends Error {
  override readonly name = "LeftForExcelSignal";
  constructor(readonly why: string) {
    super(why);
  }
}
