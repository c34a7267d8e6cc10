/** When a window of keys is sent (dataloader's `batchScheduleFn`): production waits briefly, tests flush by hand. */

/** Called once per window with the function that sends it. */
export type BatchScheduler = (dispatch: () => void) => void;

/** Collects the keys asked within `ms` milliseconds (Excel delivers a recalculation's calls in quick succession). */
export function timerScheduler(ms = 2): BatchScheduler {
  return (dispatch) => {
    setTimeout(dispatch, ms);
  };
}

export interface ManualScheduler {
  scheduler: BatchScheduler;
  /** Windows waiting to be sent. */
  readonly pending: number;
  /** Sends every waiting window; returns how many. */
  flush(): number;
}

export function manualScheduler(): ManualScheduler {
  const queue: (() => void)[] = [];
  return {
    scheduler: (dispatch) => {
      queue.push(dispatch);
    },
    get pending() {
      return queue.length;
    },
    flush() {
      const due = queue.splice(0, queue.length);
      for (const dispatch of due) dispatch();
      return due.length;
    },
  };
}
