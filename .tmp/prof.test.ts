import { fixtureHost } from "../test/host/harness";
it("times", async () => {
  const host = fixtureHost();
  const cells: Record<string, unknown> = {};
  const col = (n: number) => { let s = ""; for (let x = n + 1; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s; return s; };
  for (let c = 1; c < 50; c++) cells[`${col(c)}1`] = c;
  for (let r = 2; r < 202; r++) {
    cells[`A${r}`] = r;
    for (let c = 1; c < 50; c++) {
      cells[`${col(c)}${r}`] = `=PRICES.ADD($A${r},${col(c)}$1)`;
      if (c > 1) cells[`${col(49 + c)}${r}`] = `=${col(c)}${r}/${col(c - 1)}${r}-1`;
    }
  }
  const t0 = performance.now();
  await host.evaluate(cells);
  console.log("evaluate ms", performance.now() - t0, Object.keys(cells).length);
}, 300000);
