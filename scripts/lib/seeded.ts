// A seeded sample, so every benchmark run asks the same questions: mulberry32 and a Fisher–Yates shuffle.

/** mulberry32: a small seeded generator. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `n` of `items`, drawn by `random`. */
export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  return shuffled(items, random).slice(0, n);
}

/** `n` of `items` by a linear congruential draw from `seed` (bench-code's and bench-declarations' samples). */
export function lcgSample<T>(items: readonly T[], n: number, seed0 = 12345): T[] {
  let seed = seed0;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return shuffled(items, next).slice(0, n);
}
