/** Stops the stand-ins test/global-setup.ts started, and removes the files s3rver wrote. */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const standIns = (globalThis as { standIns?: { stop(): Promise<void>; s3DataDir: string } }).standIns;
  if (!standIns) return;
  await standIns.stop();
  rmSync(standIns.s3DataDir, { recursive: true, force: true });
}
