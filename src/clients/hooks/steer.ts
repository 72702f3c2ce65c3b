// What the PreToolUse hook says about one Claude Code tool call: nothing (most calls), a nudge (extra
// context for the model, the call still runs), or a block that names the exact ctxgate call to make
// instead. Blocks only where that call does the same job: a broad grep/rg, a find by name, cat of a
// big file, curl/wget of a web page. Edits, small reads and subagents are never touched.
import * as path from 'node:path';
import type { RuntimeFs } from '../../runtime/types.ts';
import { isGrepProgram } from './grep-args.ts';
import type { JudgeRequest, Verdict } from './grep-judge.ts';
import { parseShellLine, type SimpleCommand } from './shell-words.ts';
import { suggestFetch } from './steer-fetch.ts';
import { callText, inside, type Suggestion } from './suggestion.ts';

export type Steer = { kind: 'pass' } | { kind: 'nudge'; text: string } | { kind: 'block'; text: string };

export interface ToolCall {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
  agent_id?: unknown;
}

type Fs = Pick<RuntimeFs, 'statSync'>;

export interface SteerDeps {
  fs: Fs;
  /** Runs a grep/rg and search's engine to judge whether the search call does the same (grep-judge.ts). */
  judge?: (req: JudgeRequest) => Promise<Verdict>;
}

/** A file past this many bytes costs more than ~7k tokens when printed whole. */
export const BIG_CAT_BYTES = 24 * 1024;
/** Claude Code's Read of a file past this size without offset/limit fills much of a turn. */
export const BIG_READ_BYTES = 48 * 1024;

/** Escape hatch the block message offers when ctxgate's tools are not there. */
export const SKIP_MARK = 'no-ctxgate';

const PASS: Steer = { kind: 'pass' };

export async function steer(call: ToolCall, deps: SteerDeps): Promise<Steer> {
  const fs = deps.fs;
  if (call.agent_id !== undefined) return PASS; // a subagent's own work
  const input = (call.tool_input && typeof call.tool_input === 'object' ? call.tool_input : {}) as Record<string, unknown>;
  const cwd = typeof call.cwd === 'string' ? call.cwd : undefined;
  if (!cwd) return PASS;
  switch (call.tool_name) {
    case 'Bash':
      return typeof input.command === 'string' ? steerBash(input.command, cwd, deps) : PASS;
    case 'Grep':
      return steerGrepTool(input, cwd, fs);
    case 'Read':
      return steerRead(input, cwd, fs);
    default:
      return PASS;
  }
}

async function steerBash(line: string, cwd: string, deps: SteerDeps): Promise<Steer> {
  const parsed = parseShellLine(line);
  if (parsed.complex || parsed.comments.some((c) => c.includes(SKIP_MARK))) return PASS;
  const dir = parsed.cd ? path.resolve(cwd, parsed.cd) : cwd;
  for (const command of parsed.commands) {
    if (command.stdoutToFile || command.pipedInto) continue;
    const suggestion = await suggestFor(command, dir, cwd, deps, parsed.single);
    if (!suggestion) continue;
    if (parsed.single && suggestion.exact) {
      return { kind: 'block', text: `${suggestion.text} If ctxgate's tools are not available in this session, add \`# ${SKIP_MARK}\` to the command to run it as is.` };
    }
    return { kind: 'nudge', text: suggestion.text };
  }
  return PASS;
}

/** `single`: the command is the whole line, so the hook may run it to judge what it prints. */
async function suggestFor(command: SimpleCommand, dir: string, cwd: string, deps: SteerDeps, single: boolean): Promise<Suggestion | undefined> {
  const fs = deps.fs;
  const [program, ...args] = command.words;
  const grep = program === 'git' && args[0] === 'grep' ? 'git-grep' : program;
  if (isGrepProgram(grep)) {
    // Loaded only for a grep: the pattern languages and the judge are no cost to other commands.
    const { suggestSearch } = await import('./grep-steer.ts');
    return suggestSearch(grep, grep === 'git-grep' ? args.slice(1) : args, dir, cwd, deps, single);
  }
  switch (program) {
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

async function steerGrepTool(input: Record<string, unknown>, cwd: string, fs: Fs): Promise<Steer> {
  if (input.output_mode !== 'content' || input.head_limit !== undefined || typeof input.pattern !== 'string') return PASS;
  const abs = typeof input.path === 'string' ? path.resolve(cwd, input.path) : cwd;
  const rel = inside(cwd, abs);
  if (rel === undefined || !fs.statSync(abs)?.isDirectory) return PASS;
  // The Grep tool is ripgrep: its pattern is a Rust regex.
  const { searchPatternOf } = await import('./grep-pattern.ts');
  const { searchCall } = await import('./grep-steer.ts');
  const wanted = searchPatternOf(input.pattern, 'rust');
  if (!wanted) return PASS;
  return { kind: 'nudge', text: `Broad content searches cost less through ctxgate (grouped by file, within a token budget): ${searchCall(wanted, rel !== '.' ? rel : undefined)}.` };
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
