import { chromium } from "playwright-core";
import fs from "node:fs";
(async () => {
  const url = process.argv[2]!;
  const dir = fs.mkdtempSync("/tmp/wbprobe/prof-");
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu","--disable-background-networking","--disable-component-update","--no-first-run"], ignoreHTTPSErrors: true, viewport: { width: 1600, height: 1000 } });
  const page = ctx.pages()[0] ?? await ctx.newPage();
  page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 300)));
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  await page.goto(url);
  await page.waitForFunction(() => (window as any).Workbench || document.getElementById("cell-message")?.textContent?.includes("could not"), undefined, { timeout: 30000 }).catch((e) => console.log("wait fail", e.message));
  await page.evaluate(() => (window as any).Workbench?.settled());
  console.log(await page.evaluate(() => { const w = (window as any).Workbench; return w ? JSON.stringify({ B4: w.value("B4"), C4: w.value("C4"), B11: w.value("B11"), B12: w.value("B12"), B13: w.value("B13"), B14: w.value("B14"), B15: w.value("B15"), J3: w.value("J3"), J4: w.value("J4"), K4: w.value("K4"), O3: w.value("O3"), R3: w.value("R3"), X3: w.value("X3"), A19: w.value("A19"), D19: w.value("D19"), src: w.source() }) : document.body.innerText.slice(0, 500); }));
  await page.waitForTimeout(1500);
  await page.screenshot({ path: "/tmp/wbprobe/shot.png" });
  await ctx.close();
})();
