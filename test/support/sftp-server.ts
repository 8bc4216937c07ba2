/**
 * A real SFTP server for tests, on a loopback port: ssh2's SSH server does the handshake and the
 * authentication, and each session's `sftp` subsystem is Debian's OpenSSH `sftp-server`
 * (`apt-get install openssh-sftp-server`, as .ci/run does), which does every file operation on
 * the real file system. Paths are the machine's own: give destinations an absolute folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';

export const SFTP_SERVER_BINARY = '/usr/lib/openssh/sftp-server';

export interface TestSftpServer {
  port: number;
  /** The fingerprint of the key the server presents, as `ssh-keygen -lf` prints it. */
  hostKeyFingerprint: string;
  /** A client key the server accepts for `username` (OpenSSH private key). */
  clientPrivateKey: string;
  username: string;
  password: string;
  /** Refuse every change of the file system (sftp-server -R): writes are denied. */
  readOnly: boolean;
  /** Drop the connection once this many bytes came from the client in a session; once. */
  dropAfterBytes: number | undefined;
  sessions: number;
  close(): Promise<void>;
}

export function sftpServerAvailable(): boolean {
  return existsSync(SFTP_SERVER_BINARY);
}

export async function startSftpServer(options: { username?: string; password?: string } = {}): Promise<TestSftpServer> {
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519');
  const clientKey = ssh2.utils.generateKeyPairSync('ed25519');
  const allowedClientKey = ssh2.utils.parseKey(clientKey.public);
  if (allowedClientKey instanceof Error) throw allowedClientKey;
  const hostPublic = ssh2.utils.parseKey(hostKey.public);
  if (hostPublic instanceof Error) throw hostPublic;
  const children = new Set<ChildProcess>();
  const state: Omit<TestSftpServer, 'port' | 'close'> = {
    hostKeyFingerprint: `SHA256:${createHash('sha256').update(hostPublic.getPublicSSH()).digest('base64').replace(/=+$/, '')}`,
    clientPrivateKey: clientKey.private,
    username: options.username ?? 'partner',
    password: options.password ?? 'partner-password',
    readOnly: false,
    dropAfterBytes: undefined,
    sessions: 0,
  };
  const server = new ssh2.Server({ hostKeys: [hostKey.private] }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (context) => {
      if (context.username !== state.username) return context.reject();
      if (context.method === 'password' && context.password === state.password) return context.accept();
      if (
        context.method === 'publickey' &&
        context.key.algo === allowedClientKey.type &&
        context.key.data.equals(allowedClientKey.getPublicSSH()) &&
        (!context.signature || allowedClientKey.verify(context.blob!, context.signature, context.hashAlgo) === true)
      ) {
        return context.accept();
      }
      context.reject(['password', 'publickey']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('subsystem', (acceptSubsystem, reject, info) => {
          if (info.name !== 'sftp') return reject();
          state.sessions++;
          const channel = acceptSubsystem();
          const child = spawn(SFTP_SERVER_BINARY, ['-e', '-l', 'ERROR', ...(state.readOnly ? ['-R'] : [])], {
            stdio: ['pipe', 'pipe', 'ignore'],
          });
          children.add(child);
          child.on('exit', () => {
            children.delete(child);
            channel.close();
          });
          const dropAfter = state.dropAfterBytes;
          let received = 0;
          channel.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (dropAfter !== undefined && received > dropAfter) {
              // The server dies mid-upload: the connection goes with it.
              state.dropAfterBytes = undefined;
              child.kill('SIGKILL');
              client.end();
              return;
            }
            child.stdin.write(chunk);
          });
          channel.on('close', () => child.stdin.end());
          child.stdout.pipe(channel);
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const result = Object.assign(state, {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const child of children) child.kill('SIGKILL');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return result;
}
