/**
 * Finds a member name written twice in one object of a JSON text, which JSON.parse takes silently
 * (the last one wins). jsonc-parser's scanner reads the tokens one after another, so any nesting
 * depth JSON.parse accepts is read without recursion.
 */
import { createScanner } from 'jsonc-parser';

/** jsonc-parser's SyntaxKind values: a const enum, which isolated modules cannot read from its declarations. */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, comma: 5, string: 10, end: 17 } as const;

/** An open object (the names it has so far) or array, and the member of it being read. */
interface Frame {
  names?: Set<string>;
  member: string | number;
}

/** The dot path of the first name an object holds twice (`additionalHeaders.X-Env`); undefined when none is. Expects JSON that JSON.parse accepted. */
export function firstDuplicateName(json: string): string | undefined {
  const scanner = createScanner(json, true);
  const frames: Frame[] = [];
  let expectingName = false;
  for (let token: number = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    const frame = frames.at(-1);
    switch (token) {
      case TOKEN.openBrace:
        frames.push({ names: new Set(), member: '' });
        expectingName = true;
        break;
      case TOKEN.openBracket:
        frames.push({ member: 0 });
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
        if (frame.names.has(name)) return [...frames.slice(0, -1).map((open) => open.member), name].join('.');
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
