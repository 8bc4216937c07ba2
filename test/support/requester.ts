/** Calls to an API by its base URL as a partner makes them: JSON in, the answer parsed when it is JSON. Used by tests and benches alike. */
import type { Organization } from '../../shared/organizations/organization';

export interface Caller {
  organization: Organization;
  apiKey: string;
  headers: Record<string, string>;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  body?: NonNullable<Parameters<typeof fetch>[1]>['body'];
  as?: Caller;
}

export function requester(baseUrl: string): <T = any>(method: string, path: string, options?: RequestOptions) => Promise<ApiResponse<T>> {
  return async (method, path, { headers = {}, json, body, as } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(as?.headers ?? {}),
        ...(json !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: json !== undefined ? JSON.stringify(json) : body,
    });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json') && text.length > 0;
    return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text, text };
  };
}
