/**
 * The SSRF guard for every place a partner tells the service to connect to (webhook URLs, file
 * delivery hosts and endpoints): a synchronous syntax check, a save-time check that resolves the
 * host, and a connect-time `lookup` that refuses disallowed addresses, so the connection goes to
 * exactly the address that was checked (no DNS rebinding).
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AppConfig } from '../config';

export interface DestinationPolicy {
  /** Local development and tests only (LOOPBACK_DESTINATIONS): permits http:// and loopback, nothing else private. */
  allowLoopback: boolean;
}

/**
 * The local allowance that lets partners' destinations be loopback hosts (http://127.0.0.1,
 * localhost): given only by the local runtime (`ALLOW_LOOPBACK_DESTINATIONS=true npm start`) and tests.
 */
export const LOOPBACK_DESTINATIONS = 'partner-destinations-on-loopback';

export function destinationPolicyOf(config: Pick<AppConfig, 'localAllowances'>): DestinationPolicy {
  return { allowLoopback: config.localAllowances?.includes(LOOPBACK_DESTINATIONS) === true };
}

export type Resolve = (hostname: string) => Promise<string[]>;

export const MAX_URL_LENGTH = 2048;

export const systemResolve: Resolve = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const KINDS: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  deprecatedSiteLocal: 'a site-local address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  discard: 'a discard-only address',
  benchmarking: 'a benchmarking address',
  amt: 'an AMT address',
  as112: 'an AS112 address',
  orchid2: 'an ORCHIDv2 address',
  droneRemoteIdProtocolEntityTags: 'a reserved address',
};

/** IPv4-compatible IPv6 (::a.b.c.d, deprecated): ipaddr.js calls it unicast, but it carries an IPv4 address inside. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** How long a save-time DNS lookup may take before the URL is refused. */
const RESOLVE_TIMEOUT_MS = 3_000;

/** What kind of disallowed address this is ("10.0.0.5, a private address"); undefined when it may be connected to. */
function refusal(address: string, policy: DestinationPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address}, which is not an IP address`;
  // process() unwraps IPv4-mapped IPv6 (::ffff:a.b.c.d), which would otherwise reach the IPv4 inside.
  const parsed = ipaddr.process(address);
  const kind = parsed.range();
  const range = kind === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : kind;
  if (range === 'unicast' || (range === 'loopback' && policy.allowLoopback)) return undefined;
  const shown = parsed.toString() === address ? address : `${address} (${parsed.toString()})`;
  return `${shown}, ${KINDS[range] ?? `a ${range} address`}`;
}

/** Why the address may not be connected to, e.g. "resolves to 10.0.0.5, a private address"; undefined when it may. */
export function addressProblem(address: string, policy: DestinationPolicy): string | undefined {
  const refused = refusal(address, policy);
  return refused && `resolves to ${refused}`;
}

/** A host name without IPv6 brackets or a trailing dot, and whether it is an IP literal. */
function normalHost(raw: string): { host: string; literal: boolean } {
  const host = raw
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  return { host, literal: isIP(host) !== 0 };
}

function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

function isLoopbackHost(host: string, literal: boolean): boolean {
  return isLocalhostName(host) || (literal && ipaddr.process(host).range() === 'loopback');
}

/** Synchronous check of a host name or IP literal: a readable reason, or undefined when it is acceptable. */
export function hostProblem(raw: string, policy: DestinationPolicy): string | undefined {
  const { host, literal } = normalHost(raw);
  if (!host) return 'the host is empty';
  if (isLocalhostName(host) && !policy.allowLoopback) return `the host ${host} is a loopback name`;
  if (literal) {
    const refused = refusal(host, policy);
    if (refused) return `the host is ${refused}`;
  } else if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(host) || host.length > 253) {
    return `the host ${raw} is not a valid host name`;
  }
  return undefined;
}

/** Synchronous syntax check of an https URL a partner gives: a readable reason, or undefined when it is acceptable. */
export function urlProblem(raw: string, policy: DestinationPolicy): string | undefined {
  if (raw.length > MAX_URL_LENGTH) return `the URL is longer than ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the URL is not a valid absolute URL';
  }
  if (url.username || url.password) return 'the URL must not contain a user name or password';
  const { host, literal } = normalHost(url.hostname);
  if (!host) return 'the URL has no host';
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && isLoopbackHost(host, literal))) return 'the URL must use https';
  } else if (url.protocol !== 'https:') {
    return 'the URL must use https';
  }
  return hostProblem(url.hostname, policy);
}

/** The save-time check of a host: the syntax check, then every address the name resolves to must pass. */
export async function reachableHostProblem(
  raw: string,
  policy: DestinationPolicy,
  resolve: Resolve = systemResolve,
): Promise<string | undefined> {
  const problem = hostProblem(raw, policy);
  if (problem) return problem;
  const { host, literal } = normalHost(raw);
  if (literal) return undefined;
  let addresses: string[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS);
    });
    addresses = await Promise.race([resolve(host), timeout]);
  } catch {
    addresses = [];
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return `the host ${host} does not resolve (within ${RESOLVE_TIMEOUT_MS / 1000} s)`;
  for (const address of addresses) {
    const refused = addressProblem(address, policy);
    if (refused) return `the host ${host} ${refused}`;
  }
  return undefined;
}

/** The save-time check of a URL: the syntax check, then its host's. */
export async function reachableUrlProblem(
  raw: string,
  policy: DestinationPolicy,
  resolve: Resolve = systemResolve,
): Promise<string | undefined> {
  return urlProblem(raw, policy) ?? (await reachableHostProblem(new URL(raw).hostname, policy, resolve));
}

/**
 * The connect-time check, as the `lookup` option of http(s).request and net.connect: resolves every
 * address and refuses the connection if any is disallowed. (IP literals skip `lookup`; hostProblem covers them.)
 */
export function guardedLookup(policy: DestinationPolicy, lookup: typeof dns.lookup = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(destinationError(`the host ${hostname} does not resolve`), []);
      for (const { address } of addresses) {
        const refused = addressProblem(address, policy);
        if (refused) return callback(destinationError(`the host ${hostname} ${refused}`), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [dns.LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

/** The code of the error a guarded lookup fails with. */
export const DESTINATION_REFUSED = 'EDESTINATIONREFUSED';

function destinationError(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: DESTINATION_REFUSED });
}
