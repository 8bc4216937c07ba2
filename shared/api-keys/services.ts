/** The runtime's credential services: the key store, bearer tokens and the authenticator over both. */
import { service } from '../platform/runtime';
import { tableOf } from '../platform/table';
import { ApiKeyStore } from './store';
import { Authenticator } from './authenticator';
import { BearerTokens } from './bearer-tokens';
import { tokenSigningKeyFrom } from './token-signing-key';

export const apiKeyStoreOf = /* @__PURE__ */ service((runtime) => new ApiKeyStore(tableOf(runtime)));
export const bearerTokensOf = /* @__PURE__ */ service((runtime) => new BearerTokens(tokenSigningKeyFrom(runtime.config)));
export const authenticatorOf = /* @__PURE__ */ service((runtime) => new Authenticator(apiKeyStoreOf(runtime), bearerTokensOf(runtime)));
