import { chromium } from "playwright-core";
import https from "node:https";
import fs from "node:fs";
import path from "node:path";
import { ensureCertificates } from "../src/sandbox/auth";
import { EXCEL_STUB } from "../test/browser/pane-excel-stub";
async function main() {
  const c = await ensureCertificates();
  const root = "/work/main/dist";
  const server = https.createServer({ key: c.key, cert: c.cert }, (req, res) => {
    const p = path.join(root, decodeURIComponent(new URL(req.url ?? "/", "https://x").pathname));
    if (!fs.existsSync(p) || fs.statSync(p).isDirectory()) { res.statusCode = 404; res.end(); return; }
    res.setHeader("content-type", p.endsWith(".html") ? "text/html" : p.endsWith(".js") ? "text/javascript" : "application/json");
    res.end(fs.readFileSync(p));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as any).port;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
  await ctx.addInitScript({ content: EXCEL_STUB });
  const page = await ctx.newPage();
  page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 300)));
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  page.on("requestfailed", (r) => console.log("failed:", r.url()));
  page.on("response", (r) => { if (r.status() >= 400) console.log("status", r.status(), r.url()); });
  await page.goto(`https://localhost:${port}/taskpane.html`);
  await page.waitForTimeout(2000);
  console.log(await page.evaluate(`JSON.stringify({ reg: window.__excel.registered(), assoc: String(window.CustomFunctions.associate).slice(0,100) })`));
  console.log(await page.evaluate(`Excel.run(async (c) => { c.workbook.getSelectedRange().formulas = [['=PRICES.MID("MB-AL-0004")']]; await c.sync(); }).then(() => window.__excel.settle()).then(() => JSON.stringify(window.__excel.value("A1")))`));
  await browser.close(); server.close();
}
main();
