// UTF-8 byte boundaries: where a cut through encoded text may fall without splitting a character.

/** Index of the first byte at or after `from` that starts a character (skips continuation bytes). */
export function utf8Start(bytes: Uint8Array, from = 0): number {
  let i = from;
  while (i < bytes.length && ((bytes[i] ?? 0) & 0xc0) === 0x80) i++;
  return i;
}

/** Length of the longest prefix that does not end inside a multi-byte UTF-8 sequence. */
export function utf8Boundary(bytes: Uint8Array): number {
  let i = bytes.length;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last sequence.
  let back = 0;
  while (i > 0 && back < 4 && ((bytes[i - 1] ?? 0) & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.length;
  const lead = bytes[i - 1] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need === back + 1 ? bytes.length : i - 1;
}
