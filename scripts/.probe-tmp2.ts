import { chromium } from "playwright-core";
import fs from "node:fs";
(async () => {
  const url = process.argv[2]!;
  const dir = fs.mkdtempSync("/tmp/wbprobe/prof-");
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu","--disable-background-networking","--disable-component-update","--no-first-run"], ignoreHTTPSErrors: true, viewport: { width: 1600, height: 1000 } });
  const page = ctx.pages()[0] ?? await ctx.newPage();
  page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 300), JSON.stringify(m.location())));
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  page.on("response", (r) => { if (r.status() >= 400) console.log("HTTP", r.status(), r.url()); });
  await page.goto(url);
  await page.waitForFunction(() => (window as any).Workbench, undefined, { timeout: 30000 });
  await page.waitForTimeout(8000);
  console.log(page.frames().map(f=>f.url())); const frame = page.frames()[1];
  console.log("frame", frame?.url());
  console.log(await frame?.evaluate(() => JSON.stringify({ excel: typeof (window as any).Excel, run: typeof (window as any).Excel?.run, pane: typeof (window as any).PricesPane, addin: typeof (window as any).PricesAddin, body: document.body.innerText.slice(0, 300), html: document.documentElement.outerHTML.slice(0, 600) })));
  await ctx.close();
})();
