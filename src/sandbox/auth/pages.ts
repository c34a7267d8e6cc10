/**
 * The token service's plain HTML pages: sign-in, errors and sign-out. No script (but the one line that
 * submits a confirmed sign-out), no external resources, one labelled form; they must work in the Office
 * dialog and with a screen reader.
 */
import { createHash } from "node:crypto";
import { escapeMarkup } from "../../xlsx/escape";

/** Headers for every page: no caching, and nothing but inline style may load. */
export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

const STYLE = `
body{font-family:"Segoe UI",system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f5f5f5;color:#1b1b1b}
main{max-width:22rem;margin:0 auto;background:#fff;padding:1.5rem;border-radius:4px;box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{font-size:1.4rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{box-sizing:border-box;width:100%;padding:.5rem;font-size:1rem;border:1px solid #767676;border-radius:2px}
input:focus,button:focus{outline:2px solid #0f6cbd;outline-offset:2px}
.actions{display:flex;gap:.5rem;margin-top:1.25rem}
button{font-size:1rem;padding:.5rem 1rem;border-radius:2px;border:1px solid #0f6cbd;cursor:pointer}
button.primary{background:#0f6cbd;color:#fff}
button.secondary{background:#fff;color:#0f6cbd}
.error{color:#a4262c;background:#fde7e9;border-left:4px solid #a4262c;padding:.5rem .75rem;margin:0 0 1rem}
.hint{color:#444;font-size:.875rem;margin-top:1.25rem}
`;

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeMarkup(title)} – Physical Prices sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageOptions {
  /** Where the form posts (the interaction's login URL). */
  readonly action: string;
  /** Where "Cancel" posts. */
  readonly abortAction: string;
  readonly clientName: string;
  readonly username?: string;
  /** Shown in an alert above the form, e.g. after a wrong password. */
  readonly error?: string;
  /** Test accounts listed under the form (the sandbox's credentials are public). */
  readonly hint?: string;
  /** The account this browser is still signed in with: offered as one button above the form for another account. */
  readonly continueAs?: { readonly action: string; readonly account: string };
}

export function loginPage(options: LoginPageOptions): string {
  const error = options.error
    ? `<p class="error" id="login-error" role="alert">${escapeMarkup(options.error)}</p>\n`
    : "";
  const invalid = options.error ? ` aria-invalid="true" aria-describedby="login-error"` : "";
  const hint = options.hint ? `<p class="hint">${escapeMarkup(options.hint)}</p>\n` : "";
  const continueAs = options.continueAs
    ? `<form method="post" action="${escapeMarkup(options.continueAs.action)}" id="continue-form">
<p>You are signed in to the token service as <strong>${escapeMarkup(options.continueAs.account)}</strong>.</p>
<div class="actions"><button class="primary" type="submit" id="continue">Continue as ${escapeMarkup(options.continueAs.account)}</button></div>
</form>
<h2 style="font-size:1.1rem;margin:1.5rem 0 0">Or use another account</h2>
`
    : "";
  return layout(
    "Sign in",
    `<h1>Sign in to ${escapeMarkup(options.clientName)}</h1>
${continueAs}${error}<form method="post" action="${escapeMarkup(options.action)}">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeMarkup(options.username ?? "")}"${invalid}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
<div class="actions">
<button class="primary" type="submit">Sign in</button>
<button class="secondary" type="submit" formaction="${escapeMarkup(options.abortAction)}" formnovalidate>Cancel</button>
</div>
</form>
${hint}`,
  );
}

export function messagePage(title: string, message: string, details?: string): string {
  const extra = details ? `<p class="hint">${escapeMarkup(details)}</p>\n` : "";
  return layout(title, `<h1>${escapeMarkup(title)}</h1>\n<p role="alert">${escapeMarkup(message)}</p>\n${extra}`);
}

/** oidc-provider's `logoutSource`: `form` is its hidden form `op.logoutForm`. */
export function logoutPage(form: string): string {
  return layout(
    "Sign out",
    `<h1>Sign out of the Physical Prices sandbox?</h1>
${form}
<div class="actions">
<button class="primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>
</div>
`,
  );
}

/** The one script a page may run: submits the logout form of `logoutConfirmedPage`. */
const SUBMIT_LOGOUT = 'document.getElementById("op.logoutForm").submit();';

/** PAGE_HEADERS, but the submitting script may run (by its hash, nothing else). */
export const SUBMIT_PAGE_HEADERS = {
  ...PAGE_HEADERS,
  "content-security-policy": `${PAGE_HEADERS["content-security-policy"]}; script-src 'sha256-${createHash("sha256").update(SUBMIT_LOGOUT).digest("base64")}'`,
} as const;

/**
 * The logout already confirmed by a valid `id_token_hint` for the signed-in user: oidc-provider's form `form`
 * is submitted at once with `logout=yes` (ending the whole session), so no question is shown.
 */
export function logoutConfirmedPage(form: string): string {
  return layout(
    "Signing out",
    `<h1>Signing out of the Physical Prices sandbox…</h1>
${form}
<input type="hidden" form="op.logoutForm" name="logout" value="yes">
<noscript><div class="actions"><button class="primary" type="submit" form="op.logoutForm">Continue</button></div></noscript>
<script>${SUBMIT_LOGOUT}</script>
`,
  );
}
