// What the PreToolUse hook says about a shell grep/rg (issue 20, item 7: a hook that never makes the
// agent worse). It denies only a command it has judged — by running it and ctxgate's engine for the
// literal search call (grep-judge.ts) — whose lines that call returns every one of, in no more bytes.
// A command that prints too much gets a nudge that says so and how to narrow it; anything it could
// not judge keeps today's nudge, with a search call only where one says the same thing.
import * as path from 'node:path';
import type { RuntimeFs } from '../../runtime/types.ts';
import { type GrepArgs, type GrepProgram, readGrepArgs } from './grep-args.ts';
import type { JudgeRequest, Verdict } from './grep-judge.ts';
import { type SearchPattern, searchPatternOf } from './grep-pattern.ts';
import { callText, inside, type Suggestion } from './suggestion.ts';

export interface GrepSteerDeps {
  fs: Pick<RuntimeFs, 'statSync'>;
  /** Runs the command and search's engine (absent: nothing is judged, so nothing is denied). */
  judge?: (req: JudgeRequest) => Promise<Verdict>;
}

const JUDGED: ReadonlySet<GrepProgram> = new Set(['grep', 'egrep', 'fgrep', 'rg']);

/**
 * `judge`: the line is this one command (nothing else runs before or after it), so what it prints
 * can be found out by running it.
 */
export async function suggestSearch(program: GrepProgram, args: readonly string[], dir: string, cwd: string, deps: GrepSteerDeps, judge: boolean): Promise<Suggestion | undefined> {
  const g = readGrepArgs(program, args);
  if (!g.recursive || g.bounded || g.pattern === undefined || g.pattern === '') return undefined;
  const folders: string[] = [];
  let namedFile = false;
  for (const p of g.paths.length ? g.paths : ['.']) {
    const abs = path.resolve(dir, p);
    const rel = inside(cwd, abs);
    const stat = deps.fs.statSync(abs);
    if (rel === undefined || !stat) return undefined;
    if (stat.isDirectory) folders.push(rel);
    else namedFile = true;
  }
  if (folders.length === 0) return undefined; // named files only: a targeted look
  const wanted = searchPatternOf(g.pattern, g.dialect);
  const scope = folders.length === 1 && folders[0] !== '.' ? folders[0] : undefined;
  const judgeable = judge && deps.judge && JUDGED.has(program) && g.plain && folders.length === 1 && !namedFile;
  // The text as typed, where the command reads it as an invalid regex (`rg "parse("`): judged as a
  // literal, the command's own failure is what the hook can tell the agent about.
  const asTyped = !wanted && (g.dialect === 'rust' || g.dialect === 'ere');
  const literal = wanted && !wanted.regex ? wanted.pattern : asTyped ? g.pattern : undefined;
  if (judgeable && literal !== undefined) {
    const verdict = await deps.judge!({ program, args, dir, root: cwd, literal, scope: scope ?? '', lineNumbers: g.lineNumbers });
    return fromVerdict(verdict, g, { pattern: literal, regex: false }, scope, asTyped);
  }
  if (!wanted) return undefined;
  return { exact: false, text: `ctxgate searches the project grouped by file and within a token budget: ${searchCall(wanted, scope)}.${locateHint(wanted)}` };
}

export function searchCall(wanted: SearchPattern, scope: string | undefined): string {
  return callText('search', { pattern: wanted.pattern, ...(wanted.regex ? { regex: true } : {}), ...(scope ? { scope } : {}) });
}

function locateHint(wanted: SearchPattern): string {
  return !wanted.regex && /^[A-Za-z_$][\w$]*$/.test(wanted.pattern) ? ` For where \`${wanted.pattern}\` is defined: ${callText('locate', { query: wanted.pattern })}.` : '';
}

const count = (n: number) => n.toLocaleString('en-US');
const kb = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${count(Math.round(bytes / 1024))} KB`);

function fromVerdict(verdict: Verdict, g: GrepArgs, wanted: SearchPattern, scope: string | undefined, asTyped: boolean): Suggestion | undefined {
  switch (verdict.kind) {
    case 'delivers':
      return {
        exact: true,
        text: `${searchCall(wanted, scope)} returns the same ${count(verdict.lines)} line${verdict.lines === 1 ? '' : 's'}, grouped by file, in ${kb(verdict.replyBytes)} against the command's ${kb(verdict.commandBytes)}.${locateHint(wanted)}`,
      };
    case 'too-broad': {
      const what = verdict.cut
        ? `${count(verdict.hits)} matching lines in ${count(verdict.files)} files: more than one search answer's token budget holds`
        : `${count(verdict.hits)} matching lines in ${count(verdict.files)} files: search answers at most ${verdict.limits.hits} lines in ${verdict.limits.files} files, so it would refuse this too`;
      const printed = verdict.commandBytes ? ` (the command prints ${kb(verdict.commandBytes)})` : '';
      const narrow = verdict.narrower.map((n) => `${searchCall(wanted, n.scope)} (${count(n.hits)} line${n.hits === 1 ? '' : 's'} in ${n.files} file${n.files === 1 ? '' : 's'})`);
      const how = narrow.length ? `narrow it first, e.g. ${narrow.join(' or ')}, or ` : 'narrow it first: ';
      return { exact: false, text: `This prints ${what}${printed}; ${how}list the files with \`${g.program} -l\`, or cap the lines per file with \`-m 3\`.` };
    }
    // The command is a regex that does not compile where the text as typed is what the agent meant.
    case 'fails':
      return asTyped
        ? { exact: false, text: `${g.program} reads this pattern as a regex and refuses it (${verdict.message}). For the text as typed: \`${g.program} -F\`, or ${searchCall(wanted, scope)} (search takes the pattern literally unless regex:true).` }
        : undefined;
    default:
      // Prints nothing, lines search would not show, a bigger reply, or not judged in time: the
      // command is as good as the call or better.
      return undefined;
  }
}
