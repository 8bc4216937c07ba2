/** Stops the stand-ins test/global-setup.js started, and removes the run's temporary folder (s3rver's files among them). */
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const { standIns } = globalThis;
  if (!standIns) return;
  await standIns.stop();
  rmSync(standIns.runTmp, { recursive: true, force: true });
}
