// ctx_fs reply text: listings, globs, stats and search hits as the model reads them.
import type { GlobResult } from '../../workspace/glob.ts';
import type { GrepQuery, GrepResult } from '../../workspace/grep/types.ts';
import { skippedNote } from '../skipped-note.ts';
import type { Listing } from '../../workspace/list.ts';
import type { StatResult } from '../../workspace/stat.ts';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G', 'T'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${units[unit]}`;
}

export function formatListing(listing: Listing, limit: number): string {
  const lines = listing.entries.map((e) => {
    if (e.type === 'dir') return `${e.path}/`;
    if (e.type === 'symlink') return `${e.path}@`;
    return e.size === undefined ? e.path : `${e.path}  ${formatSize(e.size)}`;
  });
  const head = `${listing.path}: ${listing.entries.length} entr${listing.entries.length === 1 ? 'y' : 'ies'}`;
  const notes: string[] = [];
  if (listing.truncated) notes.push(`truncated at limit ${limit}; list a subfolder or raise limit (max 2000)`);
  if (listing.notEntered.length) notes.push(`not entered: ${listing.notEntered.join(', ')}`);
  return [head, ...lines, ...notes.map((n) => `(${n})`)].join('\n');
}

export function formatGlob(result: GlobResult, limit: number): string {
  const head = `${result.matches.length} match${result.matches.length === 1 ? '' : 'es'} for ${result.pattern} in ${result.base}`;
  const tail = result.truncated ? [`(truncated at limit ${limit}; narrow the pattern or path, or raise limit (max 2000))`] : [];
  return [head, ...result.matches, ...tail].join('\n');
}

export function formatStat(s: StatResult): string {
  const link = s.symlink ? ` -> ${s.symlink.target} (${s.symlink.type} ${s.symlink.resolved})` : '';
  return `${s.path}: ${s.type}${link}, ${s.size} bytes, mode ${s.mode}, modified ${s.mtime}, workdir ${s.workdir}`;
}

export function formatGrep(result: GrepResult, query: GrepQuery): string {
  const head = `${result.matches} match${result.matches === 1 ? '' : 'es'} in ${result.files.length} file${result.files.length === 1 ? '' : 's'} (${result.engine})`;
  const body: string[] = [];
  for (const f of result.files) {
    body.push(f.path);
    let last = 0;
    for (const l of f.lines) {
      if (last && l.line > last + 1) body.push('  --');
      body.push(`  ${l.line}${l.match ? ':' : '-'} ${l.text}`);
      last = l.line;
    }
  }
  if (result.truncated) body.push(`(more matches exist: stopped at limit ${query.limit}; narrow path/glob or raise limit (max 500))`);
  if (result.skipped?.length) body.push(skippedNote(result.skipped));
  return [head, ...body].join('\n');
}
