/** A webhook receiver on loopback for tests: every JSON body it is sent, answered 200. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonReceiver {
  /** The bodies received, in order. */
  received: any[];
  url(path: string): string;
  close(): void;
}

export async function jsonReceiver(): Promise<JsonReceiver> {
  const received: any[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
