/** The pane's one coalescing rule (taskpane/dom.ts): many reports in one turn redraw once, a later turn redraws again. */
import { oncePerMicrotask } from "../../src/taskpane/dom";

it("redraws once for many calls in one turn, and again for a call in a later turn", async () => {
  let redraws = 0;
  const report = oncePerMicrotask(() => {
    redraws += 1;
  });
  for (let cell = 0; cell < 1000; cell += 1) report();
  expect(redraws).toBe(0);
  await Promise.resolve();
  expect(redraws).toBe(1);
  report();
  await Promise.resolve();
  expect(redraws).toBe(2);
});
