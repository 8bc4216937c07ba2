import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import { CheckoutRequest, CreditPurchaseRequest, PortalRequest, ReturnUrl } from '../../../shared/billing/schemas';

const problem = (url: string) => {
  const result = v.safeParse(ReturnUrl, url);
  return result.success ? undefined : result.issues[0].message;
};

describe('ReturnUrl (successUrl, cancelUrl, returnUrl)', () => {
  it('accepts absolute https URLs, and http to localhost, 127.0.0.1 or [::1]', () => {
    for (const url of [
      'https://partner.test/billing/done',
      'https://partner.test/done?session={CHECKOUT_SESSION_ID}#top',
      'https://partner.test/caf%C3%A9',
      'HTTPS://PARTNER.TEST/',
      'http://localhost/done',
      'http://localhost:5173/done',
      'http://127.0.0.1:8080/done',
      'http://[::1]:3000/done',
      `https://partner.test/${'a'.repeat(2_000 - 'https://partner.test/'.length)}`,
    ]) {
      assert.equal(problem(url), undefined, url);
    }
  });

  it('refuses CR, LF, tab, NUL, spaces and other non-printable or non-ASCII characters', () => {
    for (const url of [
      'https://partner.test/done\r\nSet-Cookie: a=b',
      'https://partner.test/done\n',
      'https://partner.test/\tdone',
      'https://partner.test/\u0000',
      'https://partner.test/\u007f',
      'https://partner.test/a b',
      ' https://partner.test/',
      'https://partner.test/café',
      'https://partner.test/\u2028',
    ]) {
      assert.match(problem(url) ?? '', /printable ASCII: no spaces or control characters/, JSON.stringify(url));
    }
  });

  it('refuses plain http elsewhere, other schemes, relative and over-long URLs', () => {
    assert.match(problem('http://partner.test/done') ?? '', /https URL \(http only for localhost/);
    assert.match(problem('http://localhost.partner.test/') ?? '', /https URL/);
    assert.match(problem('http://127.0.0.1.nip.io/') ?? '', /https URL/);
    assert.match(problem('ftp://partner.test/') ?? '', /https/);
    assert.match(problem('javascript:alert(1)//https://x') ?? '', /https/);
    assert.match(problem('https:partner.test/done') ?? '', /must start with https:\/\//);
    assert.match(problem('//partner.test/done') ?? '', /absolute URL/);
    assert.match(problem('/billing/done') ?? '', /absolute URL/);
    assert.match(problem(`https://partner.test/${'a'.repeat(2_000)}`) ?? '', /at most 2,000 characters/);
  });

  it('is the one schema of all three fields', () => {
    const bad = 'https://partner.test/\r\n';
    const good = 'https://partner.test/ok';
    assert.equal(v.safeParse(CheckoutRequest, { priceId: 'p', successUrl: bad, cancelUrl: good }).success, false);
    assert.equal(v.safeParse(CheckoutRequest, { priceId: 'p', successUrl: good, cancelUrl: bad }).success, false);
    assert.equal(v.safeParse(CreditPurchaseRequest, { priceId: 'p', successUrl: good, cancelUrl: bad }).success, false);
    assert.equal(v.safeParse(PortalRequest, { returnUrl: bad }).success, false);
    assert.equal(v.safeParse(PortalRequest, { returnUrl: good }).success, true);
  });
});
