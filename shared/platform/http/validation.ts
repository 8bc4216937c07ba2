/** Valibot validation with one readable sentence per failure, naming the field. */
import * as v from 'valibot';
import { invalidInput } from '../errors';
import type { AnySchema } from './route';

export function validate(schema: AnySchema | undefined, input: unknown, where: string): unknown {
  if (!schema) return {};
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw invalidInput(describeIssue(result.issues[0], where));
}

/** "supplierName is required", "limit: must be ...", "Unknown field "x" in the body." */
function describeIssue(issue: v.BaseIssue<unknown>, where: string): string {
  const path = v.getDotPath(issue);
  if (issue.expected === 'never') {
    return `Unknown field "${path ?? String(issue.input)}" in the ${where}.`;
  }
  if (path && issue.kind === 'schema' && issue.received === 'undefined') return `${path} is required.`;
  return path ? `${path}: ${issue.message}` : `Invalid ${where}: ${issue.message}`;
}
