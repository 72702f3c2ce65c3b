// How the code text index is described to people and models: ctx_kb stats and doctor, the status
// page, and the progress notes a search sends while the index builds.
import type { TextIndexStatus } from '../../textindex/types.ts';
import { formatBytes } from '../context/usage-printer.ts';

/** One line: the index's state, how much of the project it covers, what it takes on disk. */
export function describeTextIndex(s: TextIndexStatus | undefined, onDisk?: { textComplete: boolean; files: number }): string {
  if (!s) return 'text index: none (every search scans the files)';
  // A process that has not opened the index yet (`ctxgate stats`) tells what the database holds.
  if (s.state === 'idle' && onDisk?.textComplete) return `text index: built, over ${onDisk.files.toLocaleString('en-US')} catalogued files (on disk)`;
  const files = `${s.indexed.toLocaleString('en-US')} of ${s.total.toLocaleString('en-US')} files`;
  switch (s.state) {
    case 'ready':
      return `text index: ready, ${files}, ${formatBytes(s.bytes)}`;
    case 'building':
      return `text index: building, ${files} indexed, ${formatBytes(s.bytes)} so far (searches scan the files meanwhile)`;
    case 'unavailable':
      return `text index: unavailable${s.error ? ` (${s.error})` : ''} (every search scans the files)`;
    default:
      return 'text index: not built yet (it builds on the first search)';
  }
}

/** The progress note of a search answered by a scan while the index builds. */
export function textIndexProgressNote(s: TextIndexStatus): string {
  return `building the text index: ${s.indexed} of ${s.total} files (answering from a file scan meanwhile)`;
}
