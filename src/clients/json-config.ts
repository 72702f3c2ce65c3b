// Edits a client's JSON (or JSON-with-comments) config in place: one key set, everything else —
// other servers, comments, key order — left as it was (jsonc-parser computes the minimal edit).
import { applyEdits, findNodeAtLocation, type JSONPath, modify, type ParseError, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import { AppError, ErrorCode } from '../errors.ts';

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** The parsed value of a JSONC text ('' is an empty object); a syntax error names the file and line. */
export function readJsonc(text: string, file: string): unknown {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new AppError(ErrorCode.Config, `${file} is not valid JSON (line ${line}: ${printParseErrorCode(first.error)})`, {
      hint: 'fix the file (or move it aside), then run ctxgate init again',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError(ErrorCode.Config, `${file} does not hold a JSON object`, { hint: 'fix the file (or move it aside), then run ctxgate init again' });
  }
  return value;
}

/** The value at a path, or undefined. */
export function valueAt(text: string, jsonPath: JSONPath): unknown {
  if (text.trim() === '') return undefined;
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, jsonPath);
  return node ? parse(text.slice(node.offset, node.offset + node.length)) : undefined;
}

/** `text` with `value` at `jsonPath` (created or replaced); undefined removes the key. */
export function setJson(text: string, jsonPath: JSONPath, value: unknown): string {
  const out = applyEdits(text, modify(text, jsonPath, value, FORMAT));
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** Structural equality of two JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
