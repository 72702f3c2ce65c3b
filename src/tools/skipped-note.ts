// The line a reply adds when the built-in engine could not search some files in time.
import type { SkippedFile } from '../workspace/grep/types.ts';

/** Files the built-in engine did not search: its answer may lack their matches. */
export function skippedNote(skipped: readonly SkippedFile[]): string {
  const shown = skipped.slice(0, 5).map((s) => `${s.path} (${s.reason === 'timeout' ? 'its match ran over the time limit' : 'its worker failed'})`);
  const more = skipped.length > shown.length ? `, and ${skipped.length - shown.length} more` : '';
  return `(${skipped.length} file${skipped.length === 1 ? '' : 's'} not searched: ${shown.join(', ')}${more}; their matches are missing — try a simpler pattern, or install ripgrep)`;
}
