// What `read NAME` says about the definitions it did not show: one line each (file:line, kind, the
// first sentence of its doc comment), so a documented re-export or another module's version of the
// name is one step away; and a C or C++ body's prototypes and `extern` declarations as "declared in".
import { localLabel } from '../../code/graph.ts';
import type { Definition } from '../../retrieval/graph.ts';

/** At most this many other definitions are listed, each one line. */
export const OTHERS_SHOWN = 8;

const COMMENT_MARKS = /^\s*(?:\/\*\*?|\*\/|\*|\/\/\/?|#|--)\s?|\s*\*\/\s*$/g;
const DOCSTRING = /^\s*[rRbBuU]?("""|''')/;

/**
 * The first sentence of a definition's documentation: the comment lines between its first line and
 * the line naming it, else (Python) the docstring right below it. Empty when it has none.
 */
export function firstDocSentence(lines: readonly string[], d: Pick<Definition, 'start' | 'line'>): string {
  let text = lines
    .slice(d.start - 1, d.line - 1)
    .filter((l) => /^\s*(\/\/|\/\*|\*|#(?![a-z]))/.test(l))
    .map((l) => l.replace(COMMENT_MARKS, '').trim())
    .filter((l) => l && !l.startsWith('@'))
    .join(' ');
  if (!text) {
    const below = lines[d.line] ?? '';
    const quote = DOCSTRING.exec(below)?.[1];
    if (quote) {
      const body: string[] = [];
      for (let i = d.line; i < Math.min(lines.length, d.line + 12); i++) {
        const l = (lines[i] ?? '').replace(DOCSTRING, '');
        const end = l.indexOf(quote);
        body.push((end >= 0 ? l.slice(0, end) : l).trim());
        if (end >= 0) break;
      }
      text = body.filter(Boolean).join(' ');
    }
  }
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(text)?.[1] ?? text;
  return sentence.length > 140 ? `${sentence.slice(0, 139)}…` : sentence;
}

/** `src/Effect.ts:120 const — Runs a generator as an effect.`; a local says what it is and where. */
export function otherDefinitionLine(d: Definition, doc: string): string {
  const kind = d.local ? `local (${localLabel(d)})` : `${d.kind}${d.container ? ` of ${d.container}` : ''}`;
  return `  ${d.file}:${d.line} ${kind}${doc ? ` — ${doc}` : ''}`;
}

/**
 * Said under an answer whose definitions came from part of the files naming the name (before the code
 * index's first build is done: Definitions.partial); its counts are lower bounds.
 */
export function partialNote(name: string): string {
  return `(the code index is still being built: of the files naming ${name}, only those with a line that may declare it were parsed — fields, parameters and locals elsewhere are not counted yet)`;
}

/**
 * The lines under a read definition: its other definitions (bounded), then C and C++ declarations;
 * `partial`: they were looked for in part of the files (partialNote).
 */
export async function otherDefinitionsText(name: string, best: Definition, others: readonly Definition[], linesOf: (file: string) => Promise<readonly string[]>, partial = false): Promise<string> {
  const out: string[] = [];
  if (best.declarations?.length) {
    const shown = best.declarations.slice(0, OTHERS_SHOWN);
    out.push(...shown.map((d) => `declared in ${d.file}:${d.line}`));
    if (best.declarations.length > shown.length) out.push(`… declared in ${best.declarations.length - shown.length} more places`);
  }
  if (others.length) {
    out.push(`${others.length}${partial ? '+' : ''} other definition${others.length === 1 && !partial ? '' : 's'} of ${name}:`);
    for (const d of others.slice(0, OTHERS_SHOWN)) out.push(otherDefinitionLine(d, d.local ? '' : firstDocSentence(await linesOf(d.file), d)));
    if (others.length > OTHERS_SHOWN) out.push(`  … ${others.length - OTHERS_SHOWN} more (locate ${name} with kind "definition")`);
  }
  if (partial) out.push(partialNote(name));
  return out.length ? `\n${out.join('\n')}` : '';
}
