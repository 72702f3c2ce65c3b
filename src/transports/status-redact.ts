// What the status page and /status.json may quote of a job or a source: a label that holds a
// credential (a URL with a password) is not quoted, nor is a line of a job's output that holds one
// (`cat .env`, a token echoed). One rule for the page and the JSON (issue 23.11: the JSON used to
// return the tails as they were).
import type { StatusSnapshot } from '../app/status.ts';
import { secretInText } from '../security/secret-text.ts';

/** A job's or source's label, or why it is not shown. */
export function shownLabel(text: string): string {
  const held = secretInText(text);
  return held ? `(label not shown: it holds ${held})` : text;
}

/** A job's newest output, each line that holds a credential replaced by why it is not shown. */
export function shownTail(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const held = secretInText(line);
      return held ? `(line not shown: it holds ${held})` : line;
    })
    .join('\n');
}

/** The snapshot as /status.json serves it: labels and tails judged as on the page. */
export function redactSnapshot(s: StatusSnapshot): StatusSnapshot {
  const kb = 'sources' in s.kb ? { ...s.kb, sources: s.kb.sources.map((x) => ({ ...x, label: shownLabel(x.label) })) } : s.kb;
  return { ...s, jobs: s.jobs.map((j) => ({ ...j, label: shownLabel(j.label), tail: shownTail(j.tail) })), kb };
}
