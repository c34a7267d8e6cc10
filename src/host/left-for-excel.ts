/** The signal that stops a run meeting something it cannot evaluate with Excel's semantics, for the evaluator and the worksheet functions alike. */
import type { Unanswered } from "../functions/errors";

/**
 * A formula left because the service gave no answer about a price it needs: of which kind, and, for one that only
 * reads such a price, the cell of the call that had none (`B2`, `'Prices'!B2`). A later run may write it.
 */
export interface UnansweredLeave {
  readonly kind: Unanswered;
  readonly from?: string;
}

/** A run met something it cannot evaluate with Excel's semantics: the formula keeps Excel's value. */
export class LeftForExcelSignal extends Error {
  override readonly name = "LeftForExcelSignal";
  constructor(
    readonly why: string,
    readonly unanswered?: UnansweredLeave,
  ) {
    super(why);
  }
}
