// Edits a client's JSON (or JSON-with-comments) config in place: one key set, everything else —
// other servers, comments, key order — left as it was (jsonc-parser computes the minimal edit).
import { applyEdits, findNodeAtLocation, type JSONPath, modify, type ParseError, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import { AppError, ErrorCode } from '../errors.ts';

const BOM = '\uFEFF';
const FIX_HINT = 'fix the file (or move it aside), then run ctxgate init again';

/** The parsed value of a JSONC text ('' is an empty object); a syntax error names the file and line. */
export function readJsonc(raw: string, file: string): unknown {
  const text = withoutBom(raw);
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new AppError(ErrorCode.Config, `${file} is not valid JSON (line ${line}: ${printParseErrorCode(first.error)})`, {
      hint: FIX_HINT,
    });
  }
  if (!isObject(value)) throw new AppError(ErrorCode.Config, `${file} does not hold a JSON object`, { hint: FIX_HINT });
  return value;
}

/** Editors on Windows may start a UTF-8 file with a byte order mark; it is kept, and not read as JSON. */
function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** The value at a path, or undefined. */
export function valueAt(raw: string, jsonPath: JSONPath): unknown {
  const text = withoutBom(raw);
  if (text.trim() === '') return undefined;
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, jsonPath);
  return node ? parse(text.slice(node.offset, node.offset + node.length)) : undefined;
}

/**
 * `text` with `value` at `jsonPath` (created or replaced); undefined removes the key. A key on the way
 * that holds something other than an object is the user's to fix: it is named, never overwritten.
 * The file's byte order mark and line ends are kept.
 */
export function setJson(raw: string, file: string, jsonPath: JSONPath, value: unknown): string {
  for (let i = 1; i < jsonPath.length; i++) {
    const on = valueAt(raw, jsonPath.slice(0, i));
    if (on !== undefined && !isObject(on)) {
      const key = jsonPath.slice(0, i).join('.');
      throw new AppError(ErrorCode.Config, `${file}: "${key}" holds ${describe(on)} where an object of entries belongs`, { hint: FIX_HINT });
    }
  }
  const bom = raw.startsWith(BOM) ? BOM : '';
  const text = raw.slice(bom.length);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const out = applyEdits(text, modify(text, jsonPath, value, { formattingOptions: { insertSpaces: true, tabSize: 2, eol } }));
  return bom + (out.endsWith('\n') ? out : `${out}${eol}`);
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
