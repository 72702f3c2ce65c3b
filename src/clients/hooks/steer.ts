// What the PreToolUse hook says about one Claude Code tool call: nothing (most calls), a nudge (extra
// context for the model, the call still runs), or a block that names the exact ctxgate call to make
// instead. Blocks only where that call does the same job: a broad grep/rg, a find by name, cat of a
// big file, curl/wget of a web page. Edits, small reads and subagents are never touched.
import * as path from 'node:path';
import type { RuntimeFs } from '../../runtime/types.ts';
import { parseShellLine, type SimpleCommand } from './shell-words.ts';
import { suggestFetch } from './steer-fetch.ts';
import { callText, type Suggestion } from './suggestion.ts';

export type Steer = { kind: 'pass' } | { kind: 'nudge'; text: string } | { kind: 'block'; text: string };

export interface ToolCall {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
  agent_id?: unknown;
}

type Fs = Pick<RuntimeFs, 'statSync'>;

/** A file past this many bytes costs more than ~7k tokens when printed whole. */
export const BIG_CAT_BYTES = 24 * 1024;
/** Claude Code's Read of a file past this size without offset/limit fills much of a turn. */
export const BIG_READ_BYTES = 48 * 1024;

/** Escape hatch the block message offers when ctxgate's tools are not there. */
export const SKIP_MARK = 'no-ctxgate';

const PASS: Steer = { kind: 'pass' };

export function steer(call: ToolCall, fs: Fs): Steer {
  if (call.agent_id !== undefined) return PASS; // a subagent's own work
  const input = (call.tool_input && typeof call.tool_input === 'object' ? call.tool_input : {}) as Record<string, unknown>;
  const cwd = typeof call.cwd === 'string' ? call.cwd : undefined;
  if (!cwd) return PASS;
  switch (call.tool_name) {
    case 'Bash':
      return typeof input.command === 'string' ? steerBash(input.command, cwd, fs) : PASS;
    case 'Grep':
      return steerGrepTool(input, cwd, fs);
    case 'Read':
      return steerRead(input, cwd, fs);
    default:
      return PASS;
  }
}

function steerBash(line: string, cwd: string, fs: Fs): Steer {
  const parsed = parseShellLine(line);
  if (parsed.complex || parsed.comments.some((c) => c.includes(SKIP_MARK))) return PASS;
  const dir = parsed.cd ? path.resolve(cwd, parsed.cd) : cwd;
  for (const command of parsed.commands) {
    if (command.stdoutToFile || command.pipedInto) continue;
    const suggestion = suggestFor(command, dir, cwd, fs);
    if (!suggestion) continue;
    if (parsed.single && suggestion.exact) {
      return { kind: 'block', text: `${suggestion.text} If ctxgate's tools are not available in this session, add \`# ${SKIP_MARK}\` to the command to run it as is.` };
    }
    return { kind: 'nudge', text: suggestion.text };
  }
  return PASS;
}

function suggestFor(command: SimpleCommand, dir: string, cwd: string, fs: Fs): Suggestion | undefined {
  const [program, ...args] = command.words;
  switch (program) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
    case 'rg':
    case 'ag':
    case 'ack':
      return suggestSearch(program, args, dir, cwd, fs);
    case 'git':
      return args[0] === 'grep' ? suggestSearch('git-grep', args.slice(1), dir, cwd, fs) : undefined;
    case 'find':
      return suggestFind(args, dir, cwd, fs);
    case 'cat':
      return suggestCat(args, dir, cwd, fs);
    case 'curl':
    case 'wget':
      return suggestFetch(program, args);
    default:
      return undefined;
  }
}

/** A path relative to the session folder, or undefined when it lies outside (ctxgate cannot serve it). */
function inside(cwd: string, abs: string): string | undefined {
  const rel = path.relative(cwd, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

const REGEX_CHARS = /[.*+?^${}()|[\]\\]/;

type FlagEffect = 'same' | 'fixed' | 'extended' | 'recursive' | 'bounded' | 'pattern' | 'other';

// What a grep-family option does to "these lines, in these files", and whether it takes a value.
const COMMON_FLAGS: Record<string, [FlagEffect, boolean]> = {
  '-n': ['same', false], '--line-number': ['same', false], '-H': ['same', false], '--with-filename': ['same', false], '-s': ['same', false],
  '--no-messages': ['same', false], '-I': ['same', false], '--no-heading': ['same', false], '--heading': ['same', false], '--color': ['same', true],
  '-F': ['fixed', false], '--fixed-strings': ['fixed', false], '-e': ['pattern', true], '--regexp': ['pattern', true],
  // Output that stays small: listing files, counting, stopping early.
  '-l': ['bounded', false], '-L': ['bounded', false], '--files-with-matches': ['bounded', false], '--files-without-match': ['bounded', false],
  '-c': ['bounded', false], '--count': ['bounded', false], '--count-matches': ['bounded', false], '-q': ['bounded', false], '--quiet': ['bounded', false],
  '-m': ['bounded', true], '--max-count': ['bounded', true],
  '-f': ['other', true], '--file': ['other', true], '-A': ['other', true], '-B': ['other', true], '-C': ['other', true], '--context': ['other', true],
  '--after-context': ['other', true], '--before-context': ['other', true],
};
const GREP_FLAGS: Record<string, [FlagEffect, boolean]> = {
  '-r': ['recursive', false], '-R': ['recursive', false], '--recursive': ['recursive', false], '--dereference-recursive': ['recursive', false],
  '-E': ['extended', false], '--extended-regexp': ['extended', false], '-P': ['other', false], '--perl-regexp': ['other', false],
  '--include': ['other', true], '--exclude': ['other', true], '--exclude-dir': ['other', true], '-d': ['other', true], '--directories': ['other', true],
};
// PCRE (-P) has look-around and backreferences, which ctxgate's linear-time engine refuses: never the same job.
const RG_FLAGS: Record<string, [FlagEffect, boolean]> = {
  '-Q': ['fixed', false], '--literal': ['fixed', false], '-P': ['other', false], '--pcre2': ['other', false],
  '-g': ['other', true], '--glob': ['other', true], '--iglob': ['other', true], '-t': ['other', true], '--type': ['other', true],
  '-T': ['other', true], '--type-not': ['other', true], '-d': ['other', true], '--max-depth': ['other', true], '-r': ['other', true],
  '--replace': ['other', true], '-E': ['other', true], '--encoding': ['other', true], '-M': ['other', true], '--max-columns': ['other', true],
  '-j': ['other', true], '--threads': ['other', true], '--sort': ['same', true], '--sortr': ['same', true], '--engine': ['other', true],
  '--ignore-file': ['other', true], '--pre': ['other', true], '--pre-glob': ['other', true], '--colors': ['same', true],
};

interface GrepArgs {
  pattern?: string;
  paths: string[];
  fixed: boolean;
  extended: boolean;
  recursive: boolean;
  bounded: boolean;
  /** Only options that change nothing the replacement would answer. */
  plain: boolean;
}

function readGrepArgs(program: string, args: readonly string[]): GrepArgs {
  const grep = program === 'grep' || program === 'egrep' || program === 'fgrep' || program === 'git-grep';
  const table = { ...COMMON_FLAGS, ...(grep ? GREP_FLAGS : RG_FLAGS) };
  const out: GrepArgs = { paths: [], fixed: program === 'fgrep', extended: !grep || program === 'egrep', recursive: !grep || program === 'git-grep', bounded: false, plain: true };
  const positional: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!options || arg === '-' || !arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    if (arg === '--') {
      options = false;
      continue;
    }
    const long = arg.startsWith('--');
    const [name, inline] = long ? (arg.split(/=(.*)/s) as [string, string | undefined]) : [arg.slice(0, 2), arg.length > 2 ? arg.slice(2) : undefined];
    // -rn: a cluster of short flags; -m5 / -e foo: a short flag with its value attached.
    const flags = !long && inline !== undefined && !table[name]?.[1] ? [...arg.slice(1)].map((c) => `-${c}`) : [name];
    for (const flag of flags) {
      const [effect, takesValue] = table[flag] ?? (['other', false] as [FlagEffect, boolean]);
      const value = takesValue ? (flags.length === 1 && inline !== undefined ? inline : args[++i]) : undefined;
      if (effect === 'pattern') {
        // More than one -e: lines matching any of them, which one search pattern does not say.
        if (out.pattern !== undefined) out.plain = false;
        out.pattern = value;
      }
      else if (effect === 'fixed') out.fixed = true;
      else if (effect === 'extended') out.extended = true;
      else if (effect === 'recursive') out.recursive = true;
      else if (effect === 'bounded') out.bounded = true;
      else if (effect === 'other') out.plain = false;
    }
  }
  if (out.pattern === undefined) out.pattern = positional.shift();
  out.paths = positional;
  return out;
}

function suggestSearch(program: string, args: readonly string[], dir: string, cwd: string, fs: Fs): Suggestion | undefined {
  const g = readGrepArgs(program, args);
  if (!g.recursive || g.bounded || g.pattern === undefined || g.pattern === '') return undefined;
  const folders: string[] = [];
  for (const p of g.paths.length ? g.paths : ['.']) {
    const abs = path.resolve(dir, p);
    const rel = inside(cwd, abs);
    const stat = fs.statSync(abs);
    if (rel === undefined || !stat) return undefined;
    if (stat.isDirectory) folders.push(rel);
  }
  if (folders.length === 0) return undefined; // named files only: a targeted look
  const regex = !g.fixed && REGEX_CHARS.test(g.pattern);
  // grep's basic regex writes groups and alternation with backslashes: not the same language; and a
  // backreference (\1) is one ctxgate's linear-time engine refuses.
  const sameSyntax = !regex || ((g.extended || !/\\[(|)]/.test(g.pattern)) && !/\\[1-9]/.test(g.pattern));
  const call: Record<string, unknown> = { pattern: g.pattern, ...(regex ? { regex: true } : {}) };
  if (folders.length === 1 && folders[0] !== '.') call.scope = folders[0];
  const identifier = /^[A-Za-z_$][\w$]*$/.test(g.pattern) ? ` For where \`${g.pattern}\` is defined: ${callText('locate', { query: g.pattern })}.` : '';
  return {
    exact: g.plain && sameSyntax && folders.length === 1,
    text: `ctxgate searches the project ranked, grouped by file and within a token budget: ${callText('search', call)}.${identifier}`,
  };
}

function suggestFind(args: readonly string[], dir: string, cwd: string, fs: Fs): Suggestion | undefined {
  const roots: string[] = [];
  let i = 0;
  while (i < args.length && !args[i]!.startsWith('-') && args[i] !== '(' && args[i] !== '!') roots.push(args[i++]!);
  const expr = args.slice(i);
  if (expr.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprintf|fls|quit)$/.test(a))) return undefined; // it acts, not lists
  const depth = expr.indexOf('-maxdepth');
  if (depth >= 0 && Number(expr[depth + 1]) <= 2) return undefined;
  const folders: string[] = [];
  for (const root of roots.length ? roots : ['.']) {
    const abs = path.resolve(dir, root);
    const rel = inside(cwd, abs);
    if (rel === undefined || !fs.statSync(abs)?.isDirectory) return undefined;
    folders.push(rel);
  }
  // -iname (any case) keeps its pattern in the nudge, but the glob is not the same job.
  const exactName = expr.indexOf('-name');
  const name = exactName >= 0 ? exactName : expr.indexOf('-iname');
  const pattern = name >= 0 ? expr[name + 1] : undefined;
  const rest = expr.filter((_, k) => k !== name && k !== name + 1);
  const plain = exactName >= 0 && pattern !== undefined && !pattern.includes('/') && folders.length === 1 && (rest.length === 0 || (rest.length === 2 && rest[0] === '-type' && rest[1] === 'f') || (rest.length === 1 && rest[0] === '-print'));
  const call: Record<string, unknown> = { action: 'glob', pattern: `**/${pattern ?? '*'}` };
  if (folders[0] && folders[0] !== '.') call.path = folders[0];
  return { exact: plain, text: `ctxgate lists files gitignore-aware and capped: ${callText('ctx_fs', call)} (or ctx_fs ls with a depth for a folder's layout).` };
}

function suggestCat(args: readonly string[], dir: string, cwd: string, fs: Fs): Suggestion | undefined {
  const files = args.filter((a) => !a.startsWith('-'));
  const flags = args.filter((a) => a.startsWith('-') && a !== '-');
  let total = 0;
  const rels: string[] = [];
  for (const file of files) {
    const abs = path.resolve(dir, file);
    const rel = inside(cwd, abs);
    const stat = fs.statSync(abs);
    if (rel === undefined || !stat?.isFile) return undefined;
    total += stat.size;
    rels.push(rel);
  }
  if (total <= BIG_CAT_BYTES || rels.length === 0) return undefined;
  const kb = Math.round(total / 1024);
  const first = rels[0]!;
  return {
    exact: rels.length === 1 && flags.length === 0,
    text: `${rels.length === 1 ? first : `these files`} ${rels.length === 1 ? 'is' : 'are'} ${kb} KB (~${Math.round(total / 3.5 / 1000)}k tokens). ctxgate reads within a budget: ${callText('read', { target: first })} gives the outline and the first part; then read a symbol, Class.method or ${first}:start-end. For a log or data file: ${callText('ctx_run', { action: 'execute', command: `cat ${first}`, intent: 'what you are looking for' })}.`,
  };
}

function steerGrepTool(input: Record<string, unknown>, cwd: string, fs: Fs): Steer {
  if (input.output_mode !== 'content' || input.head_limit !== undefined || typeof input.pattern !== 'string') return PASS;
  const abs = typeof input.path === 'string' ? path.resolve(cwd, input.path) : cwd;
  const rel = inside(cwd, abs);
  if (rel === undefined || !fs.statSync(abs)?.isDirectory) return PASS;
  const call: Record<string, unknown> = { pattern: input.pattern, ...(REGEX_CHARS.test(input.pattern) ? { regex: true } : {}), ...(rel !== '.' ? { scope: rel } : {}) };
  return { kind: 'nudge', text: `Broad content searches cost less through ctxgate (ranked, grouped, within a token budget): ${callText('search', call)}.` };
}

function steerRead(input: Record<string, unknown>, cwd: string, fs: Fs): Steer {
  if (typeof input.file_path !== 'string' || input.offset !== undefined || input.limit !== undefined) return PASS;
  const stat = fs.statSync(input.file_path);
  const rel = inside(cwd, path.resolve(cwd, input.file_path));
  if (!stat?.isFile || stat.size <= BIG_READ_BYTES || rel === undefined) return PASS;
  return {
    kind: 'nudge',
    text: `${rel} is ${Math.round(stat.size / 1024)} KB. Unless you are about to edit it, ${callText('read', { target: rel })} gives its outline and first part, and a symbol, Class.method or ${rel}:start-end gives just the block you need.`,
  };
}
