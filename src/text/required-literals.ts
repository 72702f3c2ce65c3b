// The plain-text runs every match of a regex must contain, read conservatively from the pattern:
// a file (or a line) without one of them cannot match, so a scan skips it without running the
// regex. Only runs outside any group count, and a pattern with a top-level alternation, inline flags
// or an escape this reader does not know gives none: missing a literal costs speed, a wrong one
// would cost answers.

const META = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$']);

/** Runs of literal text (each at least `minLength` characters) every match contains; [] when unsure. */
export function requiredLiterals(pattern: string, minLength = 2): string[] {
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const flush = () => {
    if (run.length >= minLength) runs.push(run);
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return [];
      // An escaped metacharacter or punctuation is itself; letters and digits are classes,
      // assertions or codes (\w \b \x41 \p{L} \Q…\E): end the run, and give up on the ones with a body.
      if (/[A-Za-z0-9]/.test(next)) {
        if (/[pPxuQEkg0-9]/.test(next)) return [];
        flush();
        i++;
        continue;
      }
      if (depth === 0) run += next;
      i++;
      continue;
    }
    if (c === '(') {
      if (pattern[i + 1] === '?' && pattern[i + 2] !== ':') return []; // flags, names, look-around
      flush();
      depth++;
      if (pattern[i + 1] === '?') i += 2;
      continue;
    }
    if (c === ')') {
      flush();
      depth--;
      if (depth < 0) return [];
      continue;
    }
    if (c === '|') {
      if (depth === 0) return [];
      continue;
    }
    if (c === '[') {
      flush();
      // Skip the class: a `]` right after `[` or `[^` belongs to it; a nested `[` is beyond this reader.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      for (; j < pattern.length && pattern[j] !== ']'; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '[') return [];
      }
      if (j >= pattern.length) return [];
      i = j;
      continue;
    }
    if (c === '*' || c === '?' || c === '{') {
      // The character before is optional (or counted): it is not part of any required run.
      if (depth === 0) run = run.slice(0, /[\uDC00-\uDFFF]$/.test(run) ? -2 : -1);
      flush();
      if (c === '{') {
        const close = pattern.indexOf('}', i);
        if (close < 0) return [];
        i = close;
      }
      if (pattern[i + 1] === '?') i++;
      continue;
    }
    if (c === '+') {
      // At least once: the character stays, but what follows may repeat it.
      flush();
      if (pattern[i + 1] === '?') i++;
      continue;
    }
    if (META.has(c)) {
      flush();
      continue;
    }
    if (depth === 0) run += c;
  }
  if (depth !== 0) return [];
  flush();
  return runs;
}
