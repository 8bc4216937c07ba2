/**
 * Which stack a command-line tool works on: the running local stack (`npm start`), or a deployed
 * one when TABLE_NAME (and BUCKET_NAME, AWS_REGION, AWS credentials) are set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadConfig, PLATFORM_SETTINGS, type AppConfig } from '../../shared/platform/config';
import { STACK_FILE } from '../local/state';

export class UsageError extends Error {}

/**
 * Runs a command-line tool: prints its result as JSON; on failure prints the message (and the
 * usage for a usage error) and exits 2 for bad usage, 1 otherwise.
 */
export function runCommand(main: () => Promise<unknown>, usage: string): void {
  main().then(
    (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      if (error instanceof UsageError) process.stderr.write(`\n${usage}\n`);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}

export function targetConfig(options: { needsBucket: boolean }): AppConfig {
  const config = loadConfig();
  const { tableName: TABLE, bucketName: BUCKET } = PLATFORM_SETTINGS.variables;
  if (config.tableName) {
    if (options.needsBucket && !config.bucketName) throw new UsageError(`Set ${BUCKET} with ${TABLE}.`);
    return { ...config, bucketName: config.bucketName ?? 'unused' };
  }
  if (!existsSync(STACK_FILE)) {
    throw new UsageError(`The local stack is not running: start it with \`npm start\`, or set ${TABLE} for a deployed stack.`);
  }
  return JSON.parse(readFileSync(STACK_FILE, 'utf8')) as AppConfig;
}
