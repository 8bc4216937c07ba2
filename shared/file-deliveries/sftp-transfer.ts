/**
 * Delivering to an SFTP server with ssh2: the host resolved through the destination guard and
 * connected to by address, the host key checked against the pinned fingerprint before anything is
 * sent, the file written under a hidden temporary name of its own in the folder and then renamed
 * over the final one (OpenSSH's atomic posix-rename where the server has it). A reader never sees
 * part of a file under its name, even when a queue message is handled twice at once; a transfer
 * that breaks leaves at most its hidden temporary file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import ssh2, { type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { type DestinationPolicy, guardedLookup, hostProblem } from '../platform/network/destinations';
import { joinPath, type DeliveryDestination, type SftpTarget } from './destination';
import { connectionFailure, TransferFailure, type DeliveredFile, type FileTransfer, type OpenedCredentials } from './transfer';

/** OpenSSH's fingerprint of a public key blob: `SHA256:` and the unpadded base64 of its digest. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The hidden name a file is written under before it is renamed: partner pipelines that pick files by pattern skip it. */
export function temporaryName(name: string): string {
  return `.${name}.${randomBytes(4).toString('hex')}.part`;
}

/** SFTP status codes (draft-ietf-secsh-filexfer-02) as delivery failures. */
const SFTP_STATUS = { noSuchFile: 2, permissionDenied: 3, failure: 4 } as const;

export class SftpTransfer implements FileTransfer {
  constructor(private readonly options: { policy: DestinationPolicy; timeoutMs?: number }) {}

  async put(destination: DeliveryDestination, credentials: OpenedCredentials, file: DeliveredFile): Promise<void> {
    const target = destination.sftp!;
    const final = joinPath(target.folder, file.name);
    const temporary = joinPath(target.folder, temporaryName(file.name));
    await this.session(target, credentials, async (sftp) => {
      await call<void>((done) => sftp.writeFile(temporary, file.bytes, done), `writing ${temporary}`);
      await renameOver(sftp, temporary, final);
    });
  }

  async remove(destination: DeliveryDestination, credentials: OpenedCredentials, name: string): Promise<void> {
    const target = destination.sftp!;
    await this.session(target, credentials, (sftp) =>
      call<void>((done) => sftp.unlink(joinPath(target.folder, name), done), `removing ${name}`),
    );
  }

  /** Connects, opens the SFTP channel, runs `work` and always closes the connection. */
  private async session(target: SftpTarget, credentials: OpenedCredentials, work: (sftp: SFTPWrapper) => Promise<void>): Promise<void> {
    const where = `The SFTP server ${target.host}:${target.port}`;
    const address = await this.addressOf(target.host, where);
    const client = new ssh2.Client();
    let presentedKey: string | undefined;
    const config: ConnectConfig = {
      host: address,
      port: target.port,
      username: target.username,
      readyTimeout: this.options.timeoutMs ?? 10_000,
      // A server that stops answering mid-transfer is given up on within 15 s.
      keepaliveInterval: 5_000,
      keepaliveCountMax: 3,
      hostVerifier: (key: Buffer) => {
        presentedKey = hostKeyFingerprint(key);
        return presentedKey === target.hostKeyFingerprint;
      },
      ...(credentials.password !== undefined && { password: credentials.password }),
      ...(credentials.privateKey !== undefined && { privateKey: credentials.privateKey, passphrase: credentials.passphrase }),
    };
    try {
      const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
        client.once('error', reject);
        client.once('ready', () => client.sftp((error, sftp) => (error ? reject(error) : resolve(sftp))));
        client.connect(config);
      });
      // A connection that breaks fails the call under way, whose callback may never come.
      const broken = new Promise<never>((_, reject) => {
        client.on('error', reject);
        client.on('close', () => reject(Object.assign(new Error('The connection closed.'), { doing: 'the transfer' })));
      });
      broken.catch(() => undefined);
      await Promise.race([work(sftp), broken]);
    } catch (error) {
      throw sessionFailure(error, where, target, presentedKey);
    } finally {
      client.end();
    }
  }

  /** The address to connect to: an IP literal as it is, a name through the guarded lookup. */
  private async addressOf(host: string, where: string): Promise<string> {
    const problem = hostProblem(host, this.options.policy);
    if (problem) throw new TransferFailure('DESTINATION_NOT_ALLOWED', `Not connected: ${problem}.`);
    if (isIP(host)) return host;
    const lookup = guardedLookup(this.options.policy);
    return new Promise((resolve, reject) =>
      lookup(host, {}, (error, address) => {
        if (error) reject(connectionFailure(error, where) ?? error);
        else resolve(address as string);
      }),
    );
  }
}

/** Renames over an existing file: OpenSSH's posix-rename, else a plain rename after removing the old file. */
async function renameOver(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
  try {
    await call<void>((done) => sftp.ext_openssh_rename(from, to, done), `renaming to ${to}`);
    return;
  } catch (error) {
    // A server without the extension says so before doing anything.
    if (!/not supported/i.test((error as Error).message)) throw error;
  }
  await call<void>((done) => sftp.unlink(to, done), `replacing ${to}`).catch(() => undefined);
  await call<void>((done) => sftp.rename(from, to, done), `renaming to ${to}`);
}

function call<T>(start: (done: (error: Error | null | undefined, value?: T) => void) => void, doing: string): Promise<T> {
  return new Promise((resolve, reject) =>
    start((error, value) => {
      if (error) reject(Object.assign(error, { doing }));
      else resolve(value as T);
    }),
  );
}

function sessionFailure(error: unknown, where: string, target: SftpTarget, presentedKey: string | undefined): TransferFailure {
  if (error instanceof TransferFailure) return error;
  const failure = error as Error & { level?: string; code?: number | string; doing?: string };
  if (presentedKey !== undefined && presentedKey !== target.hostKeyFingerprint) {
    return new TransferFailure(
      'HOST_KEY_CHANGED',
      `${where} presented the host key ${presentedKey}, not the pinned ${target.hostKeyFingerprint}: nothing was sent.`,
    );
  }
  if (failure.level === 'client-authentication')
    return new TransferFailure('AUTH_REFUSED', `${where} refused the user ${target.username} and its credentials.`);
  if (failure.level === 'client-timeout') return new TransferFailure('TIMEOUT', `${where} did not complete the SSH handshake in time.`);
  if (typeof failure.code === 'number' && failure.doing) {
    if (failure.code === SFTP_STATUS.noSuchFile)
      return new TransferFailure('NOT_FOUND', `${where}: ${failure.doing} failed, the folder ${target.folder} does not exist.`);
    if (failure.code === SFTP_STATUS.permissionDenied)
      return new TransferFailure('ACCESS_DENIED', `${where}: ${failure.doing} was refused (permission denied).`);
    return new TransferFailure('WRITE_FAILED', `${where}: ${failure.doing} failed (${failure.message}; a full disk or a quota, perhaps).`);
  }
  const connection = typeof failure.code === 'string' ? connectionFailure(failure as NodeJS.ErrnoException, where) : undefined;
  if (connection) return connection;
  if (failure.doing || /closed|ended|lost|No response/i.test(failure.message)) {
    return new TransferFailure('WRITE_FAILED', `${where} closed the connection${failure.doing ? ` while ${failure.doing}` : ''}.`);
  }
  return new TransferFailure('CONNECTION_FAILED', `${where}: ${failure.message}.`);
}
