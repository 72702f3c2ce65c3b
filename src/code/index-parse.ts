// The code index's parse step, shared by the pass and the freshness checks: read a file (the version
// its catalogue row names), hand it to the parser, and write what comes back in batches.
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { OpenedFile } from '../runtime/types.ts';
import { isSecretOpened } from '../security/secret-read.ts';
import { RACY_MS } from '../textindex/file-identity.ts';
import type { Lease } from '../storage/lease.ts';
import { type CatalogueEntry, MAX_PARSE_BYTES, parseLanguageOf } from './catalogue.ts';
import type { ParsedFile } from './file-rows.ts';
import { type IndexShared, knownPaths, PARSER_VERSION } from './index-shared.ts';
import { resolveImport } from './resolve.ts';
import type { CodeStore, FileMeta, FileRow } from './store.ts';

export interface Pending {
  meta: FileMeta;
  parsed: ParsedFile | undefined;
  targets: (string | undefined)[];
}

/**
 * Whether the bytes read may be a write's middle: the file's stat moved while it was read (size, mtime
 * or ctime against the descriptor's), fewer bytes came than the descriptor said, or it read empty
 * within RACY_MS of its last change while definitions parsed from it before are held (a coarse clock
 * leaves the times of a truncate and the write after it equal: the size alone then tells).
 */
async function beingWritten(shared: IndexShared, s: CodeStore, entry: CatalogueEntry, opened: OpenedFile): Promise<boolean> {
  const before = opened.stat;
  if (opened.bytes.length < Math.min(before.size, MAX_PARSE_BYTES)) return true;
  const after = await shared.fs.stat(entry.abs);
  if (!after || after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ctimeMs !== before.ctimeMs) return true;
  return opened.bytes.length === 0 && Date.now() - Math.max(before.mtimeMs, before.ctimeMs) < RACY_MS && s.definitionsIn(entry.path).length > 0;
}

/**
 * Reads one file (the version the catalogue row names) and hands its bytes to the parser, waiting
 * while the parser's queue is full; `result` settles with what to write, undefined when it cannot be
 * read.
 */
export async function prepareFile(shared: IndexShared, s: CodeStore, entry: CatalogueEntry, row: FileRow | undefined, urgent = false): Promise<{ result: Promise<Pending | undefined> }> {
  const language = parseLanguageOf(entry);
  const hash = row?.hash ?? '';
  const version = row?.version;
  const meta: FileMeta = { path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs, hash, language, lines: 0, parser: PARSER_VERSION, version };
  // Catalogued with nothing parsed: no grammar for it, or a secret under another name.
  const unparsed = (): Pending => ({ meta: { ...meta, language: undefined }, parsed: undefined, targets: [] });
  if (!language) return { result: Promise.resolve(unparsed()) };
  let bytes: Uint8Array;
  try {
    // Opened without following a link, and judged as every reader judges it: a hard link of a secret,
    // or a file holding a private key, is catalogued with nothing parsed (its names and signatures would
    // show through locate and read).
    const opened = await shared.fs.readOpened(entry.abs, MAX_PARSE_BYTES);
    if (await isSecretOpened(shared.fs, shared.workdirs, entry.abs, opened)) return { result: Promise.resolve(unparsed()) };
    // A file being written (truncated and written again while it was read, or emptied within the
    // clock tick of a write) is not taken now: the version parsed before keeps answering, and the
    // next look reads it again — a file rewritten in a loop was "not found" between two writes.
    if (await beingWritten(shared, s, entry, opened)) return { result: Promise.resolve(undefined) };
    // A view of a larger buffer (a scratch array) would cross to the worker whole: copied out first.
    bytes = opened.bytes.byteLength === opened.bytes.buffer.byteLength ? opened.bytes : opened.bytes.slice();
  } catch {
    return { result: Promise.resolve(undefined) };
  }
  const { result } = await shared.parser.submit({ language, bytes, path: entry.path }, { urgent });
  const pending = result.then(
    ({ parsed, skipped, lines }): Pending => {
      for (const { pattern, error } of skipped) shared.logger.log('code_query_pattern_skipped', { language, pattern, error });
      const known = knownPaths(shared, s);
      return { meta: { ...meta, lines }, parsed, targets: parsed.imports.map((imp) => resolveImport(known, language, entry.path, imp.source)) };
    },
    (e): Pending => {
      // A grammar that cannot load fails every file of its language: stop, and let the scan answer.
      if (e instanceof AppError && e.code === ErrorCode.Unavailable) throw e;
      shared.logger.log('code_index_file_error', { file: entry.path, error: messageOf(e) });
      return unparsed();
    },
  );
  // Awaited later (or never, when the pass stops first): a failure must not go unhandled meanwhile.
  pending.catch(() => undefined);
  return { result: pending };
}

/**
 * Writes a batch (emptying it) in one transaction, waiting for other processes' writes without
 * blocking. `stage`: references and locals are staged for a later merge (CodeStore.replace); returns
 * the rows staged.
 */
export async function writeBatch(s: CodeStore, batch: Pending[], lease?: Lease, stage = false): Promise<number> {
  if (!batch.length) return 0;
  const items = batch.splice(0);
  return await s.db.writeTransaction(() => {
    lease?.renew();
    let staged = 0;
    for (const p of items) staged += s.replace(p.meta, p.parsed, p.targets, stage);
    s.foldNames();
    return staged;
  });
}
