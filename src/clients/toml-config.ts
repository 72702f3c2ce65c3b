// Edits Codex's config.toml: our [mcp_servers.<name>] table (and its sub-tables) is replaced or
// appended as text, so every other line — other servers, comments, layout — stays as it was.
import { parse, stringify } from 'smol-toml';
import { AppError, ErrorCode, messageOf } from '../errors.ts';

type Table = Record<string, unknown>;

export function readToml(text: string, file: string): Table {
  try {
    return parse(text) as Table;
  } catch (error) {
    throw new AppError(ErrorCode.Config, `${file} is not valid TOML: ${messageOf(error).split('\n')[0]}`, {
      hint: 'fix the file (or move it aside), then run ctxgate init again',
    });
  }
}

/** The table `[key.name]` as parsed, or undefined. */
export function tomlTable(text: string, file: string, key: string, name: string): unknown {
  const tables = readToml(text, file)[key];
  return tables && typeof tables === 'object' ? (tables as Table)[name] : undefined;
}

/** Line ranges [start, end) of the `[key.name]` header and its sub-tables, each up to the comments above the next header. */
function tableRanges(lines: readonly string[], key: string, name: string): [number, number][] {
  const quoted = `(?:${name}|"${name}"|'${name}')`;
  const ours = new RegExp(`^\\s*\\[\\s*${key}\\s*\\.\\s*${quoted}\\s*(?:\\.[^\\]]*)?\\]\\s*(?:#.*)?$`);
  const header = /^\s*\[/;
  const ranges: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!ours.test(lines[i]!)) continue;
    let next = i + 1;
    while (next < lines.length && !header.test(lines[next]!)) next++;
    // Comments (and blank lines) right above the next header are the user's notes on what follows: kept.
    let end = next;
    while (end > i + 1 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end--;
    ranges.push([i, end]);
    i = next - 1;
  }
  return ranges;
}

/** `text` with `[key.name]` set to `entry` (replacing the old table where it stood, else appended). */
export function setTomlTable(text: string, file: string, key: string, name: string, entry: Table): string {
  readToml(text, file);
  const lines = text.split('\n');
  const ranges = tableRanges(lines, key, name);
  const block = stringify({ [key]: { [name]: entry } }).trim().split('\n');
  const kept = lines.filter((_, i) => !ranges.some(([a, b]) => i >= a && i < b));
  const at = ranges[0] ? ranges[0][0] : kept.length;
  const before = kept.slice(0, at);
  while (before.length && before[before.length - 1]!.trim() === '') before.pop();
  const after = kept.slice(at);
  while (after.length && after[0]!.trim() === '') after.shift();
  const out = [...before, ...(before.length ? [''] : []), ...block, ...(after.length ? ['', ...after] : [])].join('\n');
  const result = out.endsWith('\n') ? out : `${out}\n`;
  // A table written another way (inline, dotted keys) would now be defined twice: leave that to the user.
  const check = readTomlOrUndefined(result);
  if (!check) {
    throw new AppError(ErrorCode.Config, `${file} defines ${key}.${name} in a form ctxgate init cannot replace (inline or dotted keys)`, {
      hint: `remove the ${key}.${name} entry from ${file}, then run ctxgate init again`,
    });
  }
  return result;
}

function readTomlOrUndefined(text: string): Table | undefined {
  try {
    return parse(text) as Table;
  } catch {
    return undefined;
  }
}
