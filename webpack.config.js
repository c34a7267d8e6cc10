/**
 * Builds the add-in into dist/: functions.js (+ generated functions.json), taskpane.js, authDialog.js
 * and host.js with their pages, office.js, manifest.xml and assets; and the workbench (workbench.html, the
 * grid that runs the functions without Excel, and workbench-pane.html, the real pane wired to that grid).
 *
 *   npm run build                                         development build, https://localhost:3000
 *   npm run build:prod -- --env baseUrl=https://host/x [--env serviceUrl=https://api/physical/v2]
 *                                                         production build; the dev origins are rewritten
 *   npx webpack serve                                     dev server on https://localhost:3000
 *   npm start                                             sandbox + dev server + workbench (scripts/start.ts)
 */
const path = require("path");
const fs = require("fs");
const { execFileSync } = require("child_process");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const { sources } = require("webpack");

const DEV_ORIGIN = "https://localhost:3000";
const DEV_PORT = 3000;
const SANDBOX_ORIGIN = "https://localhost:4000";
const ROOT = __dirname;
const DIST = path.join(ROOT, "dist");
const OFFICE_JS_DIR = "office-js";
const FUNCTIONS_SOURCE = "./src/functions/functions.ts";

/** office.js and what it loads for Excel in English (the whole package is 86 MB). */
const OFFICE_JS_FILES = [
  "office.js",
  "excel-*.js",
  "excelwebapp-*.js",
  "custom-functions-runtime.js",
  "o15apptofilemappingtable.js",
  "es6-promise.js",
  "en-us/**",
  "telemetry/**",
];

/**
 * Rewrites the dev origin in the text assets of a production build (manifest, pages, scripts,
 * metadata), and the sandbox origin in the manifest's AppDomains when a service URL is given.
 */
class RewriteOriginPlugin {
  constructor(baseUrl, serviceOrigin, serviceUrl) {
    this.baseUrl = baseUrl;
    this.serviceOrigin = serviceOrigin;
    this.serviceUrl = serviceUrl;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap("RewriteOriginPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "RewriteOriginPlugin", stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          for (const name of Object.keys(assets)) {
            if (!/\.(html|xml|json|js)$/.test(name) || name.startsWith(`${OFFICE_JS_DIR}/`)) continue;
            const text = assets[name].source().toString();
            let rewritten = text;
            // An AppDomain is an origin: the base URL's path stays out of it.
            if (name === "manifest.xml") {
              rewritten = rewritten.split(`<AppDomain>${DEV_ORIGIN}</AppDomain>`).join(`<AppDomain>${new URL(this.baseUrl).origin}</AppDomain>`);
            }
            rewritten = rewritten.split(DEV_ORIGIN).join(this.baseUrl);
            if (name === "manifest.xml" && this.serviceOrigin) {
              rewritten = rewritten.split(`<AppDomain>${SANDBOX_ORIGIN}</AppDomain>`).join(`<AppDomain>${this.serviceOrigin}</AppDomain>`);
            }
            // The pane's default Base URL becomes the service's (a relay's, `npm run relay`, on the add-in's origin).
            if (name.endsWith(".js") && this.serviceUrl) {
              rewritten = rewritten.split(`${SANDBOX_ORIGIN}/physical/v2`).join(this.serviceUrl);
            }
            if (rewritten !== text) compilation.updateAsset(name, new sources.RawSource(rewritten));
          }
        },
      );
    });
  }
}

/** Puts a blocking office.js script first in the head of the pages that run inside Office. */
class OfficeScriptPlugin {
  constructor(pages) {
    this.pages = pages;
  }
  apply(compiler) {
    compiler.hooks.compilation.tap("OfficeScriptPlugin", (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap("OfficeScriptPlugin", (data) => {
        if (!this.pages.includes(data.outputName)) return data;
        const tag = HtmlWebpackPlugin.createHtmlTagObject("script", { src: `${OFFICE_JS_DIR}/office.js` });
        data.headTags.unshift(tag);
        return data;
      });
    });
  }
}

/**
 * office.js blanks a page it finds in a frame outside Office (`location.href = "about:blank"`) unless the page
 * defines `OsfOptOut`; the workbench shows the real pane in an iframe, so its pane page opts out first thing.
 */
class FrameOptOutPlugin {
  constructor(pages) {
    this.pages = pages;
  }
  apply(compiler) {
    compiler.hooks.compilation.tap("FrameOptOutPlugin", (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap("FrameOptOutPlugin", (data) => {
        if (!this.pages.includes(data.outputName)) return data;
        data.headTags.unshift(HtmlWebpackPlugin.createHtmlTagObject("script", {}, "var OsfOptOut = true;"));
        return data;
      });
    });
  }
}

/** The https certificate of the sandbox CA (src/sandbox/auth), made once into .certs/. */
function devCertificates() {
  const script =
    'import("./src/sandbox/auth/index.ts").then(async (m) => { const c = await m.ensureCertificates(); process.stdout.write(JSON.stringify({ key: c.keyPath, cert: c.certPath, ca: c.caPath })); })';
  const paths = JSON.parse(execFileSync(process.execPath, [require.resolve("tsx/cli"), "-e", script], { cwd: ROOT, encoding: "utf8" }));
  return { key: fs.readFileSync(paths.key), cert: fs.readFileSync(paths.cert), ca: fs.readFileSync(paths.ca) };
}

module.exports = (env = {}, argv = {}) => {
  const production = argv.mode === "production";
  const baseUrl = String(env.baseUrl || DEV_ORIGIN).replace(/\/+$/, "");
  if (!/^https:\/\/[^\s"'<>]+$/.test(baseUrl)) throw new Error(`baseUrl must be an https URL, got ${baseUrl}`);
  const serviceOrigin = env.serviceUrl ? new URL(String(env.serviceUrl)).origin : undefined;
  const serviceUrl = env.serviceUrl ? String(env.serviceUrl).replace(/\/+$/, "") : undefined;
  const serving = Boolean(env.WEBPACK_SERVE);

  return {
    mode: production ? "production" : "development",
    devtool: production ? "source-map" : "cheap-module-source-map",
    context: ROOT,
    entry: {
      functions: FUNCTIONS_SOURCE,
      taskpane: "./src/taskpane/taskpane.ts",
      authDialog: "./src/auth/dialog.ts",
      authSilent: "./src/auth/silent-bridge.ts",
      host: "./src/host/host.ts",
      workbench: "./src/workbench/workbench.ts",
      workbenchPane: "./src/workbench/pane-bridge.ts",
    },
    output: {
      path: DIST,
      filename: "[name].js",
      // Async chunks (MSAL) get a content hash; entries keep the names the manifest and pages use.
      chunkFilename: "[name].[contenthash:8].js",
      publicPath: "auto",
      clean: true,
    },
    resolve: { extensions: [".ts", ".js"] },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: "ts-loader",
            // ES modules so webpack can split MSAL into its own chunk and drop unused code; tsc type-checks.
            options: { transpileOnly: true, compilerOptions: { module: "esnext", sourceMap: true } },
          },
        },
      ],
    },
    performance: { hints: false },
    plugins: [
      new CustomFunctionsMetadataPlugin({ input: FUNCTIONS_SOURCE, output: "functions.json" }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        // Shared runtime: the functions load first so PricesAddin exists when the pane configures it.
        chunks: ["functions", "taskpane"],
        chunksSortMode: "manual",
      }),
      new HtmlWebpackPlugin({
        filename: "auth-dialog.html",
        template: "./src/auth/auth-dialog.html",
        chunks: ["authDialog"],
      }),
      new HtmlWebpackPlugin({
        // where the token service sends the silent sign-in's hidden iframe back (MSAL's redirect bridge only)
        filename: "auth-silent.html",
        template: "./src/auth/auth-silent.html",
        chunks: ["authSilent"],
      }),
      new HtmlWebpackPlugin({
        // The host page loads functions.js itself, after it has installed its CustomFunctions stand-in.
        filename: "host.html",
        template: "./src/host/host.html",
        chunks: ["host"],
      }),
      new HtmlWebpackPlugin({
        // The workbench loads functions.js itself, after it has installed its CustomFunctions stand-in (as host.html).
        filename: "workbench.html",
        template: "./src/workbench/workbench.html",
        chunks: ["workbench"],
      }),
      new HtmlWebpackPlugin({
        // The real pane in the workbench's iframe: the bridge first installs the Excel stand-in that edits the grid.
        filename: "workbench-pane.html",
        template: "./src/taskpane/taskpane.html",
        chunks: ["workbenchPane", "functions", "taskpane"],
        chunksSortMode: "manual",
      }),
      new OfficeScriptPlugin(["taskpane.html", "auth-dialog.html", "workbench-pane.html"]),
      // After OfficeScriptPlugin, so the opt-out lands before office.js.
      new FrameOptOutPlugin(["workbench-pane.html"]),
      new CopyWebpackPlugin({
        patterns: [
          { from: "manifest.xml", to: "manifest.xml" },
          { from: "assets", to: "assets" },
          { from: "src/workbench/workbench.css", to: "workbench.css" },
          ...OFFICE_JS_FILES.map((pattern) => ({
            from: pattern,
            context: path.join(ROOT, "node_modules/@microsoft/office-js/dist"),
            to: OFFICE_JS_DIR,
            noErrorOnMissing: true,
            info: { minimized: true },
          })),
        ],
      }),
      ...(production ? [new RewriteOriginPlugin(baseUrl, serviceOrigin, serviceUrl)] : []),
    ],
    devServer: serving
      ? {
          port: DEV_PORT,
          server: { type: "https", options: devCertificates() },
          headers: {
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Allow-Headers": "*",
            "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
          },
          static: false,
          hot: false,
          client: false,
        }
      : undefined,
  };
};
