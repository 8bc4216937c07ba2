/** Valibot validation with one readable sentence per failure, naming the field. */
import * as v from 'valibot';
import { invalidInput } from '../errors';
import type { AnySchema } from './route';

export function validate(schema: AnySchema | undefined, input: unknown, where: string): unknown {
  if (!schema) return {};
  const result = v.safeParse(schema, input, { message: checkWording });
  if (result.success) return result.output;
  throw invalidInput(describeIssue(result.issues[0], where));
}

/** "supplierName is required", "limit: must be ...", "Unknown field "x" in the body." */
function describeIssue(issue: v.BaseIssue<unknown>, where: string): string {
  const path = v.getDotPath(issue);
  if (issue.expected === 'never') return unknownFieldMessage(path ?? String(issue.input), where);
  if (path && issue.kind === 'schema' && issue.received === 'undefined') return `${path} is required.`;
  return path ? `${path}: ${issue.message}` : `The ${where} ${issue.message}`;
}

/** What a value of each type is called in a message. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  bigint: 'a number',
  boolean: 'true or false',
  object: 'an object',
  strict_object: 'an object',
  loose_object: 'an object',
  object_with_rest: 'an object',
  record: 'an object',
  array: 'an array',
  tuple: 'an array',
  strict_tuple: 'an array',
  loose_tuple: 'an array',
  null: 'null',
  date: 'a date',
};

/**
 * The message of a check that names none of its own, in the words of every other message
 * ("must be a string, not null"): valibot's default ("Invalid type: Expected string but received
 * null") is never answered.
 */
export function checkWording(issue: v.BaseIssue<unknown>): string {
  const typeName = TYPE_NAMES[issue.type];
  if (issue.kind === 'schema' && typeName) return `must be ${typeName}, not ${valueName(issue.input)}`;
  const requirement = issue.requirement;
  const size = typeof issue.input === 'string' ? 'characters' : 'items';
  switch (issue.type) {
    case 'picklist':
    case 'enum':
    case 'literal':
    case 'union':
    case 'variant':
      return choices(issue.expected) ?? 'is not one of the forms this field takes';
    case 'min_length':
      return `must have at least ${String(requirement)} ${size}`;
    case 'max_length':
      return `must have at most ${String(requirement)} ${size}`;
    case 'length':
      return `must have exactly ${String(requirement)} ${size}`;
    case 'non_empty':
      return 'must not be empty';
    case 'min_value':
      return `must be at least ${String(requirement)}`;
    case 'max_value':
      return `must be at most ${String(requirement)}`;
    case 'integer':
    case 'safe_integer':
      return 'must be a whole number';
    case 'finite':
      return 'must be a finite number';
    case 'uuid':
      return 'must be a UUID';
    case 'url':
      return 'must be a URL';
    case 'email':
      return 'must be an e-mail address';
    case 'iso_timestamp':
      return 'must be an ISO 8601 timestamp';
    case 'iso_date':
      return 'must be a date (YYYY-MM-DD)';
    default:
      return 'is not valid here';
  }
}

/** `("A" | "B")` (valibot's expectation of a picklist, a literal, or a union of them) as `must be one of "A", "B"`. */
function choices(expected: string | null): string | undefined {
  const options = expected?.replace(/^\((.*)\)$/, '$1').split(' | ') ?? [];
  if (!options.length || !options.every((option) => /^(".*"|-?\d+(\.\d+)?|true|false|null)$/.test(option))) return undefined;
  return options.length === 1 ? `must be ${options[0]}` : `must be one of ${options.join(', ')}`;
}

function valueName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** The one wording of a field sent more than once (a JSON name, a form or multipart field). */
export function repeatedFieldMessage(field: string, where: string): string {
  return `The ${where} has the field "${field}" more than once: send it once.`;
}

/** The one wording of an unknown field, from a strict schema or from a body decoder. */
export function unknownFieldMessage(field: string, where: string): string {
  return `Unknown field "${field}" in the ${where}.`;
}
