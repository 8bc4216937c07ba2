/**
 * Delivers one webhook attempt over node:http(s), connecting only to addresses the destination
 * guard allows, never following redirects, and bounding the whole attempt by a timeout.
 */
import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { type DestinationPolicy, guardedLookup, urlProblem } from '../platform/network/destinations';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode?: number;
  durationMs: number;
  responseBody?: string;
  error?: string;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<AttemptOutcome>;
}

/** How much of the receiver's answer is kept for the delivery log. */
export const MAX_RESPONSE_BYTES = 1024;

export class HttpWebhookSender implements WebhookSender {
  private readonly policy: DestinationPolicy;
  private readonly timeoutMs: number;
  private readonly lookup: ReturnType<typeof guardedLookup>;

  constructor(options: { policy: DestinationPolicy; timeoutMs?: number; lookup?: typeof dns.lookup }) {
    this.policy = options.policy;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.lookup = guardedLookup(options.policy, options.lookup);
  }

  send(request: WebhookRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const problem = urlProblem(request.url, this.policy);
    if (problem) return Promise.resolve({ succeeded: false, durationMs: elapsed(), error: problem });

    return new Promise((resolve) => {
      const url = new URL(request.url);
      const body = Buffer.from(request.body, 'utf8');
      // Expect: 100-continue would stall some receivers; the length is ours to set.
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['expect', 'content-length'].includes(name.toLowerCase())),
      );
      headers['Content-Length'] = String(body.length);

      let outgoing: http.ClientRequest | undefined;
      let settled = false;
      const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outgoing?.destroy();
        resolve({ ...outcome, durationMs: elapsed() });
      };
      const timer = setTimeout(() => finish({ succeeded: false, error: `timed out after ${this.timeoutMs / 1000} s` }), this.timeoutMs);

      try {
        const send = url.protocol === 'https:' ? https.request : http.request;
        // agent: false: a fresh connection per attempt, so every connection goes through the guarded lookup.
        outgoing = send(url, { method: 'POST', headers, lookup: this.lookup, agent: false }, (response) => {
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            // StringDecoder.write keeps back a character cut in half at the limit instead of mangling it.
            const responseBody = new StringDecoder('utf8').write(Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES));
            finish({ succeeded: statusCode >= 200 && statusCode < 300, statusCode, responseBody });
          };
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= MAX_RESPONSE_BYTES) done();
          });
          // A receiver that drops the connection mid-body still answered: keep what arrived.
          for (const event of ['end', 'error', 'close']) response.on(event, done);
        });
        outgoing.on('error', (error) => finish({ succeeded: false, error: error.message }));
        outgoing.end(body);
      } catch (error) {
        finish({ succeeded: false, error: error instanceof Error ? error.message : String(error) });
      }
    });
  }
}
