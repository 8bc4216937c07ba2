/**
 * Finds what JSON.parse takes but a request body must not hold: a member name written twice in one
 * object (the last one would win silently), or objects and arrays nested deeper than any request
 * needs (every recursive reader after the parser would overflow its stack on them). jsonc-parser's
 * scanner reads the tokens one after another, so any depth JSON.parse accepts is read without recursion.
 */
import { createScanner } from 'jsonc-parser';

/** jsonc-parser's SyntaxKind values: a const enum, which isolated modules cannot read from its declarations. */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, comma: 5, string: 10, end: 17 } as const;

/** An open object (the names it has so far) or array, and the member of it being read. */
interface Frame {
  names?: Set<string>;
  member: string | number;
}

/** The first problem of a JSON text's structure, with the dot path where it is; undefined when none. Expects JSON that JSON.parse accepted. */
export type StructureProblem = { kind: 'repeated'; path: string } | { kind: 'too_deep'; path: string };

/** The dot path of the first name an object holds twice (`additionalHeaders.X-Env`), or of the first value nested deeper than `maxDepth` objects and arrays. */
export function firstStructureProblem(json: string, maxDepth: number): StructureProblem | undefined {
  const scanner = createScanner(json, true);
  const frames: Frame[] = [];
  let expectingName = false;
  for (let token: number = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    const frame = frames.at(-1);
    switch (token) {
      case TOKEN.openBrace:
      case TOKEN.openBracket:
        if (frames.length === maxDepth) return { kind: 'too_deep', path: frames.map((open) => open.member).join('.') };
        frames.push(token === TOKEN.openBrace ? { names: new Set(), member: '' } : { member: 0 });
        expectingName = token === TOKEN.openBrace;
        break;
      case TOKEN.closeBrace:
      case TOKEN.closeBracket:
        frames.pop();
        expectingName = false;
        break;
      case TOKEN.comma:
        if (frame?.names) expectingName = true;
        else if (frame) frame.member = Number(frame.member) + 1;
        break;
      case TOKEN.string: {
        if (!expectingName || !frame?.names) break;
        expectingName = false;
        const name = scanner.getTokenValue();
        if (frame.names.has(name)) return { kind: 'repeated', path: [...frames.slice(0, -1).map((open) => open.member), name].join('.') };
        frame.names.add(name);
        frame.member = name;
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}
