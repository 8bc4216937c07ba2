/** Stops the stand-ins test/global-setup.js started, and removes the files s3rver wrote. */
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const { standIns } = globalThis;
  if (!standIns) return;
  await standIns.stop();
  rmSync(standIns.s3DataDir, { recursive: true, force: true });
}
