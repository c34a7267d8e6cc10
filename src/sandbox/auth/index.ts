/** The sandbox's token service: certificates, accounts, the OIDC provider under `/auth`, the verifier. */
export { ensureCertificates, defaultCertificatesDir, repositoryRoot, CERTIFICATE_FILES, type Certificates } from "./certs";
export {
  ADDIN_CLIENT_ID,
  ALL_INSTRUMENTS,
  METALS_ONLY,
  SANDBOX_ACCOUNTS,
  entitlement,
  withWithdrawals,
  withdrawn,
  type Accounts,
  type Withdrawals,
  type ConfidentialClient,
  type Entitlement,
  type ServiceKey,
  type User,
} from "./accounts";
export {
  AUTH_PREFIX,
  DEFAULT_ADDIN_ORIGIN,
  DEFAULT_REDIRECT_URIS,
  DEFAULT_SERVICE_KEY_TTL,
  DEFAULT_TOKEN_TTL,
  createTokenService,
  type TokenService,
  type TokenServiceOptions,
} from "./service";
export { DEFAULT_SERVICE_KEY_RATE_LIMIT, SERVICE_KEY_GRANT, type RateLimit } from "./servicekey";
export { SIGNING_KEY_FILE } from "./keys";
export { AuthFailure, isAuthFailure, type AuthError, type Caller, type CallerKind } from "./verify";
