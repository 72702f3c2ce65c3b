// A Bash tool command as the PreToolUse hook needs it: the simple commands, what each one's output
// flows into, and whether the whole line is one plain command. Parsing is shell-quote's; variables
// stay as written (`$HOME`), never expanded.
import { parse } from 'shell-quote';

export interface SimpleCommand {
  /** Words after leading VAR=value assignments. */
  words: string[];
  /** stdout goes to a file (`> out.txt`): nothing reaches the context. */
  stdoutToFile: boolean;
  /** The words of the command this one pipes into, if any. */
  pipedInto?: string[];
}

export interface ShellLine {
  commands: SimpleCommand[];
  /** Exactly one command (after an optional leading `cd DIR &&`), nothing else on the line. */
  single: boolean;
  /** The folder a leading `cd DIR &&` moved to (relative as written). */
  cd?: string;
  /** Subshells, command substitution, background jobs: too much to judge. */
  complex: boolean;
  comments: string[];
}

type Token = ReturnType<typeof parse>[number];
const LIST_OPS = new Set(['&&', '||', ';', '&', ';;']);
const REDIRECT_OUT = new Set(['>', '>>', '>&', '>|']);

export function parseShellLine(line: string): ShellLine {
  let tokens: Token[];
  try {
    tokens = parse(line, (name) => `$${name}`);
  } catch {
    return { commands: [], single: false, complex: true, comments: [] };
  }
  const comments: string[] = [];
  const lists: { op?: string; pipeline: Token[][] }[] = [{ pipeline: [[]] }];
  let complex = false;
  for (const token of tokens) {
    const current = lists[lists.length - 1]!;
    if (typeof token === 'object' && 'comment' in token) {
      comments.push(token.comment);
    } else if (typeof token === 'object' && 'op' in token && token.op !== 'glob') {
      if (token.op === '|' || token.op === '|&') current.pipeline.push([]);
      else if (LIST_OPS.has(token.op)) {
        if (token.op === '&') complex = true;
        lists.push({ op: token.op, pipeline: [[]] });
      } else if (token.op === '(' || token.op === ')' || token.op === '<(' || token.op === '>(') complex = true;
      else current.pipeline[current.pipeline.length - 1]!.push(token);
    } else {
      current.pipeline[current.pipeline.length - 1]!.push(token);
      if (token === '$') complex = true;
    }
  }
  const pipelines = lists.filter((l) => l.pipeline.some((c) => c.length > 0));
  const commands: SimpleCommand[] = [];
  for (const { pipeline } of pipelines) {
    const simple = pipeline.map(toSimple);
    simple.forEach((c, i) => {
      if (simple[i + 1]) c.pipedInto = simple[i + 1]!.words;
    });
    commands.push(...simple);
  }
  let cd: string | undefined;
  let rest = commands;
  if (commands.length === 2 && commands[0]!.words[0] === 'cd' && commands[0]!.words.length === 2 && pipelines[1]?.op === '&&') {
    cd = commands[0]!.words[1];
    rest = commands.slice(1);
  }
  return { commands, single: !complex && rest.length === 1 && !rest[0]!.pipedInto, ...(cd ? { cd } : {}), complex, comments };
}

function toSimple(tokens: Token[]): SimpleCommand {
  const words: string[] = [];
  let stdoutToFile = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (typeof token === 'object' && 'op' in token) {
      if (token.op === 'glob') {
        words.push(token.pattern);
        continue;
      }
      // `> file` / `2> file`: the fd digits were read as a word just before the operator.
      const fd = words.length && /^\d$/.test(words[words.length - 1]!) && tokens[i - 1] === words[words.length - 1] ? words.pop() : undefined;
      if (REDIRECT_OUT.has(token.op) && (fd === undefined || fd === '1')) {
        const target = tokens[i + 1];
        if (!(typeof target === 'string' && /^(\/dev\/(stdout|stderr)|&?[12])$/.test(target))) stdoutToFile = true;
      }
      i++; // the redirect target
      continue;
    }
    if (typeof token === 'string') words.push(token);
  }
  while (words.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
  return { words, stdoutToFile };
}
