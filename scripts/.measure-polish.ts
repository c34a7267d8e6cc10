import { chromium } from "playwright-core";
import { startStack } from "./start";
(async () => {
  const stack = await startStack({ port: 0, apiPort: 0 });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"] });
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  let t = Date.now();
  await page.goto(stack.workbenchUrl);
  await page.evaluate(() => (window as any).WorkbenchReady);
  await page.evaluate(() => (window as any).Workbench.settled());
  console.log("initial fill ms", Date.now() - t);
  const symbols: string[] = await page.evaluate(() => (window as any).Workbench.demo.symbols);
  console.log("symbols", symbols, "cells", await page.locator("td").count());
  const mode = process.env.MODE ?? "";
  const perf = await context.newCDPSession(page);
  await perf.send("Performance.enable");
  const metrics = async () => Object.fromEntries(((await perf.send("Performance.getMetrics")) as any).metrics.map((m: any) => [m.name, m.value]));
  const diff = (a: any, b: any) => ["TaskDuration", "LayoutDuration", "RecalcStyleDuration", "ScriptDuration", "LayoutCount"].map((k) => `${k}=${k.endsWith("Count") ? b[k] - a[k] : Math.round((b[k] - a[k]) * 1000)}`).join(" ");
  (globalThis as any).__m = { metrics, diff };
  if (mode.includes("nopane")) await page.evaluate(() => document.getElementById("pane")?.remove());
  if (mode.includes("fixed")) await page.addStyleTag({ content: "table.grid { width: max-content; } table.grid td { position: static; contain: strict; }" });
  if (mode.includes("cv")) await page.addStyleTag({ content: ".grid-scroll { contain: strict; } table.grid tbody tr { content-visibility: auto; contain-intrinsic-size: auto 21px; }" });
  if (mode.includes("bar")) { await page.locator("#formula").click(); const t0 = Date.now(); await page.keyboard.type("=PRICES.HISTORY(\"AG-AMM-0023\", \"2025-01-01\", \"2025-01-28\", \"date,mid\")"); console.log("bar typing ms", Date.now() - t0); await page.keyboard.press("Escape"); }
  if (mode.includes("overlay")) { await page.evaluate(() => { const i = document.createElement("input"); i.id = "ov"; i.style.cssText = "position:absolute;left:100px;top:1000px;width:96px;height:20px;z-index:5;contain:strict"; document.getElementById("grid")!.appendChild(i); }); await page.locator("#ov").focus(); const t0 = Date.now(); await page.keyboard.type("=PRICES.HISTORY(\"AG-AMM-0023\", \"2025-01-01\", \"2025-01-28\", \"date,mid\")"); console.log("overlay typing ms", Date.now() - t0); }
  if (mode.includes("hidden")) await page.addStyleTag({ content: "table.grid tbody tr:nth-child(n+100) { display: none; }" });
  await page.evaluate(() => { (window as any).__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) (window as any).__long.push(Math.round(e.duration)); }).observe({ entryTypes: ["longtask"] }); });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.start");
  for (const [i, cell] of ["A50", "A80"].entries()) {
    await page.locator(`td[data-address="${cell}"]`).click();
    const m0 = await metrics();
    t = Date.now();
    await page.keyboard.type(`=PRICES.HISTORY("${symbols[1]}", "2025-0${i + 1}-01", "2025-0${i + 1}-28", "date,mid")`);
    const typed = Date.now() - t;
    console.log("  typing metrics", diff(m0, await metrics()));
    t = Date.now();
    await page.keyboard.press("Enter");
    const enter = Date.now() - t;
    t = Date.now();
    await page.evaluate(() => (window as any).Workbench.settled());
    console.log("  enter+settle metrics", diff(m0, await metrics()));
    console.log(cell, "typing ms", typed, "enter ms", enter, "settle ms", Date.now() - t);
  }
  const prof = (await cdp.send("Profiler.stop")).profile as any;
  const self = new Map<string, number>();
  const dt = prof.timeDeltas as number[]; const samples = prof.samples as number[];
  const byId = new Map<number, any>(prof.nodes.map((n: any) => [n.id, n]));
  samples.forEach((id, k) => { const n = byId.get(id); const key = `${n.callFrame.functionName}@${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(key, (self.get(key) ?? 0) + (dt[k] ?? 0) / 1000); });
  console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${Math.round(v)}ms ${k}`).join("\n"));
  console.log("long tasks", await page.evaluate(() => (window as any).__long.length), await page.evaluate(() => (window as any).__long.slice(0, 40).join(",")));
  t = Date.now();
  await page.locator(`td[data-address="H60"]`).click();
  console.log("click ms", Date.now() - t);
  await browser.close();
  await stack.close();
  process.exit(0);
})();
