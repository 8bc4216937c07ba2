/**
 * What every HTML page the API serves shares (the review console, the guides): the headers that
 * keep its text from ever running as code, and the base path its links are written under.
 */

/**
 * Scripts and styles only from the API's own origin, nothing inline, calls only to the API: text
 * that reaches markup (a partner's hotel name, a guide's words) can never run, even if a bug put
 * it there unescaped.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * `https://x.execute-api…/prod` -> `/prod`; `http://127.0.0.1:3000` -> ''. A page's `<base>` is this
 * path without a host, so the page works from whatever address it was opened through: 127.0.0.1,
 * localhost, a tunnel, a custom domain.
 */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/$/, '');
}
