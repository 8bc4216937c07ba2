/**
 * The SSRF guard: which webhook URLs and addresses are refused, the save-time check over DNS
 * answers, and the delivery-time lookup that refuses a rebound name.
 */
import assert from 'node:assert/strict';
import type dns from 'node:dns';
import { describe, it } from '@jest/globals';
import {
  addressProblem,
  reachableUrlProblem,
  DESTINATION_REFUSED,
  guardedLookup,
  hostProblem,
  reachableHostProblem,
  urlProblem,
  type Resolve,
} from '../../../shared/platform/network/destinations';

const STRICT = { allowLoopback: false };
const LOCAL = { allowLoopback: true };

describe('urlProblem', () => {
  const refused: [string, string, RegExp][] = [
    ['private 10/8', 'https://10.0.0.5/hook', /the host is 10\.0\.0\.5, a private address/],
    ['private 172.16/12', 'https://172.20.1.1/', /private/],
    ['private 192.168/16', 'https://192.168.1.1/', /private/],
    ['loopback', 'https://127.0.0.1/', /loopback/],
    ['loopback short form', 'https://127.1/', /127\.0\.0\.1, a loopback address/],
    ['loopback as a number', 'https://2130706433/', /loopback/],
    ['loopback in hex', 'https://0x7f000001/', /loopback/],
    ['loopback in hex octets', 'https://0x7f.1/', /loopback/],
    ['localhost', 'https://localhost/', /loopback/],
    ['IPv6 loopback', 'https://[::1]/', /loopback/],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/', /127\.0\.0\.1\), a loopback/],
    ['link-local', 'https://169.254.10.10/', /link-local/],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254, a link-local/],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/', /link-local/],
    ['IPv6 link-local', 'https://[fe80::1]/', /link-local/],
    ['EC2 IPv6 metadata', 'https://[fd00:ec2::254]/', /unique-local/],
    ['IPv4-compatible IPv6 loopback', 'https://[::7f00:1]/', /IPv4-compatible/],
    ['IPv4-compatible IPv6 metadata', 'https://[::a9fe:a9fe]/', /IPv4-compatible/],
    ['NAT64 of a private address', 'https://[64:ff9b::a00:1]/', /NAT64/],
    ['Alibaba metadata (CGNAT)', 'https://100.100.100.200/', /carrier-grade NAT/],
    ['multicast', 'https://224.0.0.1/', /multicast/],
    ['IPv6 multicast', 'https://[ff02::1]/', /multicast/],
    ['unspecified', 'https://0.0.0.0/', /unspecified/],
    ['IPv6 unspecified', 'https://[::]/', /unspecified/],
    ['broadcast', 'https://255.255.255.255/', /broadcast/],
    ['6to4', 'https://[2002:7f00:1::]/', /6to4/],
    ['http on a public host', 'http://hooks.example.com/', /https/],
    ['http on a public address', 'http://93.184.215.14/', /https/],
    ['another scheme', 'ftp://hooks.example.com/', /https/],
    ['credentials', 'https://user:secret@hooks.example.com/', /user name or password/],
    ['a user name only', 'https://user@hooks.example.com/', /user name or password/],
    ['not a URL', 'hooks.example.com/webhook', /not a valid absolute URL/],
    ['too long', `https://hooks.example.com/${'a'.repeat(2048)}`, /longer than 2048/],
  ];
  it.each(refused)('refuses %s', (_name, url, reason) => {
    const problem = urlProblem(url, STRICT);
    assert.ok(problem, url);
    assert.match(problem, reason);
  });

  it('refuses private addresses even when loopback is allowed', () => {
    for (const url of ['https://10.0.0.5/', 'https://169.254.169.254/', 'https://[fd00:ec2::254]/', 'http://10.0.0.5/']) {
      assert.ok(urlProblem(url, LOCAL), url);
    }
  });

  const accepted: [string, boolean][] = [
    ['https://93.184.215.14/', false],
    ['https://[2606:4700::1111]/hook', false],
    ['https://hooks.example.com/webhooks?partner=1', false],
    [`https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`, false],
    ['http://127.0.0.1:8080/hook', true],
    ['http://localhost:3000/hook', true],
    ['https://localhost/', true],
    ['http://[::1]:8080/', true],
  ];
  it.each(accepted)('accepts %s (allowLoopback %s)', (url, allowLoopback) => {
    assert.equal(urlProblem(url, { allowLoopback }), undefined);
  });
});

describe('addressProblem', () => {
  it('names the address and its kind', () => {
    assert.equal(addressProblem('10.0.0.5', STRICT), 'resolves to 10.0.0.5, a private address');
    assert.equal(addressProblem('::ffff:a9fe:a9fe', STRICT), 'resolves to ::ffff:a9fe:a9fe (169.254.169.254), a link-local address');
  });

  it('allows public unicast, and loopback only when allowed', () => {
    for (const address of ['93.184.215.14', '2606:4700::1111', '8.8.8.8']) assert.equal(addressProblem(address, STRICT), undefined);
    assert.match(addressProblem('127.0.0.1', STRICT)!, /loopback/);
    assert.equal(addressProblem('127.0.0.1', LOCAL), undefined);
    assert.equal(addressProblem('::1', LOCAL), undefined);
    assert.match(addressProblem('192.168.0.1', LOCAL)!, /private/);
  });

  it('refuses what is not an address', () => {
    assert.match(addressProblem('not-an-ip', STRICT)!, /not an IP address/);
  });
});

describe('reachableUrlProblem', () => {
  const resolver =
    (answers: Record<string, string[]>): Resolve =>
    async (hostname) => {
      const found = answers[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    };
  const resolve = resolver({
    'inside.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
    'hooks.example.com': ['93.184.215.14', '2606:4700::1111'],
    'empty.example.com': [],
  });

  it('refuses a name resolving to a private address', async () => {
    assert.equal(
      await reachableUrlProblem('https://inside.example.com/hook', STRICT, resolve),
      'the host inside.example.com resolves to 10.0.0.5, a private address',
    );
  });

  it('refuses a name resolving to a mix of public and private addresses', async () => {
    assert.match((await reachableUrlProblem('https://mixed.example.com/', STRICT, resolve))!, /192\.168\.1\.10, a private address/);
  });

  it('accepts a name resolving to public addresses only', async () => {
    assert.equal(await reachableUrlProblem('https://hooks.example.com/hook', STRICT, resolve), undefined);
  });

  it('refuses a name that does not resolve', async () => {
    assert.match((await reachableUrlProblem('https://nowhere.example.com/', STRICT, resolve))!, /does not resolve/);
    assert.match((await reachableUrlProblem('https://empty.example.com/', STRICT, resolve))!, /does not resolve/);
  });

  it('checks the syntax first and does not resolve IP literals', async () => {
    const never: Resolve = async () => assert.fail('resolved');
    assert.match((await reachableUrlProblem('https://10.1.2.3/', STRICT, never))!, /private/);
    assert.equal(await reachableUrlProblem('https://93.184.215.14/', STRICT, never), undefined);
  });
});

describe('guardedLookup', () => {
  /** A stand-in for dns.lookup answering from a table, as an `all: true` lookup does. */
  const fakeLookup = (answers: dns.LookupAddress[]) =>
    ((
      _hostname: string,
      _options: dns.LookupOptions,
      callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
    ) => callback(null, answers)) as unknown as typeof dns.lookup;

  const lookupWith = (lookup: ReturnType<typeof guardedLookup>, options: dns.LookupOptions) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: number | undefined }>((resolve) =>
      lookup('hooks.example.com', options, (error, address, family) => resolve({ error, address, family })),
    );

  it('refuses a name rebound to a private address', async () => {
    const lookup = guardedLookup(STRICT, fakeLookup([{ address: '10.0.0.1', family: 4 }]));
    for (const options of [{}, { all: true }]) {
      const { error } = await lookupWith(lookup, options);
      assert.equal(error?.code, DESTINATION_REFUSED);
      assert.equal(error?.message, 'the host hooks.example.com resolves to 10.0.0.1, a private address');
    }
  });

  it('refuses when any of the addresses is disallowed', async () => {
    const lookup = guardedLookup(
      STRICT,
      fakeLookup([
        { address: '93.184.215.14', family: 4 },
        { address: 'fd00:ec2::254', family: 6 },
      ]),
    );
    assert.match((await lookupWith(lookup, { all: true })).error!.message, /unique-local/);
  });

  it('passes public addresses through, single or all', async () => {
    const answers = [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ];
    const lookup = guardedLookup(STRICT, fakeLookup(answers));
    assert.deepEqual(await lookupWith(lookup, {}), { error: null, address: '93.184.215.14', family: 4 });
    const all = await lookupWith(lookup, { all: true });
    assert.equal(all.error, null);
    assert.deepEqual(all.address, answers);
  });

  it('passes a resolver error through', async () => {
    const failing = ((_h: string, _o: unknown, callback: (error: Error) => void) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))) as unknown as typeof dns.lookup;
    assert.equal((await lookupWith(guardedLookup(STRICT, failing), {})).error?.code, 'ENOTFOUND');
  });
});

describe('hostProblem and reachableHostProblem (SFTP hosts)', () => {
  it('takes public names and addresses, and refuses private ones, loopback names and what is no host name', () => {
    for (const host of ['sftp.partner.example', '93.184.215.14', '[2606:4700::1111]', 'files_1.partner.example'])
      assert.equal(hostProblem(host, STRICT), undefined, host);
    assert.match(hostProblem('10.0.0.5', STRICT)!, /private address/);
    assert.match(hostProblem('::ffff:169.254.169.254', STRICT)!, /link-local/);
    assert.match(hostProblem('localhost', STRICT)!, /loopback name/);
    assert.match(hostProblem('127.0.0.1', STRICT)!, /loopback/);
    assert.equal(hostProblem('127.0.0.1', LOCAL), undefined);
    for (const host of ['no such host', 'host/path', 'a..b', '-leading.example', '']) assert.ok(hostProblem(host, STRICT), host);
  });

  it('refuses a name that resolves to a private address, or does not resolve', async () => {
    assert.match(
      (await reachableHostProblem('inside.example.com', STRICT, async () => ['192.168.1.10']))!,
      /inside\.example\.com resolves to 192\.168\.1\.10, a private address/,
    );
    assert.match((await reachableHostProblem('nowhere.example.com', STRICT, async () => []))!, /does not resolve/);
    assert.equal(await reachableHostProblem('sftp.partner.example', STRICT, async () => ['93.184.215.14']), undefined);
  });
});
