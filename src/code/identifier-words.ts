// Identifiers as words: how names and definition bodies become searchable for questions in words.
/** Words of an identifier: `makeSemaphore` → make semaphore, `kmalloc_array` → kmalloc array. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

/**
 * Words that say nothing about a body: keywords of the languages indexed and the commonest English
 * ones. In a kernel-size index their lists would be the biggest, and they never tell blocks apart.
 */
const STOPWORDS = new Set(
  (
    'the and for not with from that this are was but you all can has have into its may one our out use will when then than there their which would should could ' +
    'return struct static const unsigned void int char long short bool true false null nil none undefined let var new else break case default while sizeof goto ' +
    'function self def elif except finally raise pass lambda yield async await import export package func defer chan map range interface type class extends ' +
    'implements public private protected final abstract override virtual inline extern typedef enum union switch continue throw throws try catch instanceof typeof ' +
    'impl pub mut ref fn match where crate super mod use dyn move trait begin end elsif unless require module'
  ).split(' '),
);

export function bodyWords(text: string, start: number, end: number, split: Map<string, string[]>): string {
  const words = new Set<string>();
  const seen = new Set<string>();
  const slice = text.slice(start, Math.min(end, start + 8000));
  for (const m of slice.matchAll(/[A-Za-z_][\w]{2,}/g)) {
    const token = m[0];
    if (seen.has(token)) continue;
    seen.add(token);
    let parts = split.get(token);
    if (!parts) {
      parts = identifierWords(token);
      split.set(token, parts);
    }
    for (const w of parts) if (!STOPWORDS.has(w)) words.add(w);
    if (words.size >= 100) break;
  }
  return [...words].join(' ');
}
