/**
 * The sign-in interaction oidc-provider hands over to: a login page at `/auth/interaction/<uid>`,
 * its form post, "continue as" the account the browser is still signed in with, and cancel. Consent is granted without a page (see provider.ts `loadExistingGrant`);
 * only an explicit `prompt=consent` reaches here, and passes straight through.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import type { InteractionDetails } from "oidc-provider";
import { authenticateUser, type Accounts } from "./accounts";
import { PAGE_HEADERS, loginPage, messagePage } from "./pages";

export interface InteractionDeps {
  /** The mount path of the token service, e.g. `/auth`. */
  readonly prefix: string;
  readonly accounts: Accounts;
  /** Resolves the provider and prepares a raw request for it (forwarded headers). */
  readonly provider: (req: IncomingMessage) => Promise<Provider>;
  /** Records consent for the add-in (asked only with `prompt=consent`); returns the grant id. */
  readonly consent: (provider: Provider, details: InteractionDetails) => Promise<string>;
}

type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

export function registerInteractions(scope: FastifyInstance, deps: InteractionDeps): void {
  const base = `${deps.prefix}/interaction/:uid`;
  const hint = `Sandbox users: ${deps.accounts.users
    .map((u) => `${u.username} / ${u.password} (${u.entitlement.name})`)
    .join(", ")}.`;
  /** The account of the token service's session in this browser, offered as "Continue as" (the add-in asks prompt=login). */
  const signedInAs = (details: InteractionDetails): string | undefined => {
    const accountId = details.session?.accountId;
    return accountId !== undefined && deps.accounts.users.some((u) => u.username === accountId) ? accountId : undefined;
  };
  const page = (uid: string, details: InteractionDetails, extra: { username?: string; error?: string } = {}) => {
    const account = signedInAs(details);
    return loginPage({
      action: `${deps.prefix}/interaction/${encodeURIComponent(uid)}/login`,
      abortAction: `${deps.prefix}/interaction/${encodeURIComponent(uid)}/abort`,
      clientName: "Physical Prices",
      hint,
      ...(account ? { continueAs: { action: `${deps.prefix}/interaction/${encodeURIComponent(uid)}/continue`, account } } : {}),
      ...extra,
    });
  };

  /** The interaction of this browser (cookie) when it matches the URL, else an error page is sent. */
  async function interaction(
    request: UidRequest,
    reply: FastifyReply,
  ): Promise<{ provider: Provider; details: InteractionDetails } | undefined> {
    const provider = await deps.provider(request.raw);
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (details?.uid === request.params.uid) return { provider, details };
    await reply
      .code(400)
      .headers(PAGE_HEADERS)
      .send(
        messagePage(
          "Sign-in expired",
          "This sign-in page has expired or was already used. Start signing in again from the add-in.",
        ),
      );
    return undefined;
  }

  /** Records the interaction's result and sends the browser back to oidc-provider. */
  async function finish(
    provider: Provider,
    request: FastifyRequest,
    reply: FastifyReply,
    result: Record<string, unknown>,
  ): Promise<FastifyReply> {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return reply.redirect(returnTo, 303);
  }

  scope.get(base, async (request: UidRequest, reply) => {
    const found = await interaction(request, reply);
    if (!found) return reply;
    if (found.details.prompt.name === "login") return reply.headers(PAGE_HEADERS).send(page(request.params.uid, found.details));
    const grantId = await deps.consent(found.provider, found.details);
    return finish(found.provider, request, reply, { consent: { grantId } });
  });

  scope.post(base + "/login", async (request: UidRequest, reply) => {
    const found = await interaction(request, reply);
    if (!found) return reply;
    const form = new URLSearchParams(Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "");
    const username = form.get("username")?.trim() ?? "";
    const user = authenticateUser(deps.accounts, username, form.get("password") ?? "");
    if (!user) {
      return reply
        .headers(PAGE_HEADERS)
        .send(page(request.params.uid, found.details, { username, error: "The username or password is incorrect. Try again." }));
    }
    return finish(found.provider, request, reply, { login: { accountId: user.username } });
  });

  scope.post(base + "/continue", async (request: UidRequest, reply) => {
    const found = await interaction(request, reply);
    if (!found) return reply;
    const account = signedInAs(found.details);
    if (!account) return reply.headers(PAGE_HEADERS).send(page(request.params.uid, found.details, { error: "The earlier sign-in has ended. Sign in again." }));
    return finish(found.provider, request, reply, { login: { accountId: account } });
  });

  scope.post(base + "/abort", async (request: UidRequest, reply) => {
    const found = await interaction(request, reply);
    if (!found) return reply;
    return finish(found.provider, request, reply, {
      error: "access_denied",
      error_description: "The user cancelled the sign-in",
    });
  });
}
