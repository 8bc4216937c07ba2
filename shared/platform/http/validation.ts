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
  if (issue.expected === 'never') return unknownFieldMessage(path ?? String(issue.input), where);
  if (path && issue.kind === 'schema' && issue.received === 'undefined') return `${path} is required.`;
  return path ? `${path}: ${issue.message}` : `Invalid ${where}: ${issue.message}`;
}

/** The one wording of a field sent more than once (a JSON name, a form or multipart field). */
export function repeatedFieldMessage(field: string, where: string): string {
  return `The ${where} has the field "${field}" more than once: send it once.`;
}

/** The one wording of an unknown field, from a strict schema or from a body decoder. */
export function unknownFieldMessage(field: string, where: string): string {
  return `Unknown field "${field}" in the ${where}.`;
}
