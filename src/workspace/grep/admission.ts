// Which files one search may see (issue 21, item 9), decided here once per request and read by every
// engine: the built-in walk, a list of named files (a text index's candidates), ripgrep's own walk
// (its flags say the same rules as globs) and the check of what an engine answered. The rules:
// - the target itself is not secret, by its name or where its symlinks lead;
// - a file is under the target, not hidden, not in an excluded folder or path, not gitignored (unless
//   the glob asks for it), not secret by name, and passes the glob;
// - it is reached through no symlink (the walk never enters a linked folder; a named file is
//   lstat'ed) — or, when the target itself was reached through one, it is not secret where it leads;
// - opened, it is not another name of a secret (known identities) and holds no key (secret-read.ts).
import * as path from 'node:path';
import type { ReadBuffer, RuntimeFs } from '../../runtime/types.ts';
import type { SafePath, Workdirs } from '../../security/resolve-safe.ts';
import { isSecretPath, judgeSecret, judgeSecretPath, SECRET_EXCLUDE_GLOBS } from '../../security/secret-files.ts';
import { knownSecrets, type SecretIdentities } from '../../security/secret-identities.ts';
import { compileGlob } from '../../text/glob.ts';
import { createPathJudge, type PathJudge, type WalkOptions } from '../walk.ts';
import { dropSecretCounts, openedText, verifiedFiles } from './rg-verify.ts';
import type { GrepFile, GrepQuery } from './types.ts';

/** A search's query: only its glob and exclusions bear on which files it may see. */
export type AdmissionQuery = Partial<GrepQuery>;

export interface Admission {
  readonly target: SafePath;
  /** False when the target itself is secret: every engine answers nothing. */
  readonly open: boolean;
  /** Identities of the secret files in the workdirs: a file opened under another name of one is left out. */
  readonly secrets: SecretIdentities;
  /** The walk of the target (folder) that reaches the files this admits: the rules a walk applies itself. */
  readonly walk: Omit<WalkOptions, 'signal'>;
  /** A file the walk reached (ignored: a .gitignore excludes it): the rules the walk does not apply. */
  walked(relRoot: string, ignored: boolean): boolean;
  /** The target when it is a file: whether it may be searched. */
  targetFile(): boolean;
  /**
   * A file named from elsewhere (relative to the workdir): the walk's rules, then walked's. With
   * `statFolders: false` its folders are not looked at (whether one is a symlink): a first cut, for
   * lists admitted again before they are read. `catalogued`: a listing by the same .gitignore files,
   * unchanged since, holds it (PathJudge.listed): no .gitignore is tested.
   */
  named(relRoot: string, options?: { statFolders?: boolean; catalogued?: boolean }): boolean;
  /**
   * A file in an engine's answer: false when it is secret by name (ripgrep's globs should have left
   * it out), or the target was reached through a symlink and the file is secret where it leads.
   */
  shown(relRoot: string): boolean;
  /**
   * A file an engine that opens files itself (ripgrep) named: its bytes when, opened without
   * following a symlink, it is a regular file and no secret by identity or content (`into`: read
   * into that buffer, see ReadBuffer).
   */
  openedText(relRoot: string, into?: ReadBuffer): Uint8Array | undefined;
  /** ripgrep's answer checked against the files as opened (rg-verify.ts): the files to keep. */
  verified(files: readonly GrepFile[]): GrepFile[];
  /** ripgrep's counts without the files that are secrets by identity or content (`holdingNeedles`: see rg-verify.ts). */
  dropSecretCounts(counts: Map<string, number>, holdingNeedles: (files: readonly string[]) => Promise<ReadonlySet<string>>): Promise<void>;
  /** ripgrep flags that apply the rules a walk of the target applies (after the caller's glob, so the secret globs win). */
  rgWalkArgs(): string[];
}

/**
 * A glob filter as ripgrep applies it: no slash → file name at any depth; leading ! → exclude. A
 * positive glob that matches a file overrides .gitignore for that file (hidden files stay hidden,
 * ignored folders stay unentered), exactly as `rg --glob` does.
 */
export function globFilter(glob: string | undefined): (rel: string, ignored: boolean) => boolean {
  if (!glob) return (_rel, ignored) => !ignored;
  const negate = glob.startsWith('!');
  const body = negate ? glob.slice(1) : glob;
  const matches = compileGlob(body.replace(/^\//, ''));
  const matcher = body.includes('/') ? matches : (rel: string) => matches(rel.slice(rel.lastIndexOf('/') + 1));
  if (negate) return (rel, ignored) => !ignored && !matcher(rel);
  return (rel) => matcher(rel);
}

export interface AdmissionDeps {
  fs: RuntimeFs;
  workdirs: Workdirs;
}

/** The admission of one search of `target`. */
export async function createAdmission(deps: AdmissionDeps, target: SafePath, query: AdmissionQuery): Promise<Admission> {
  const { fs, workdirs } = deps;
  const folder = fs.statSync(target.real)?.isDirectory === true;
  const open = judgeSecret(workdirs, { relative: target.relative, real: target.real, folder }) === undefined;
  const secrets = await knownSecrets(fs, workdirs);
  const excludeDirs = new Set(query.excludeDirs ?? []);
  const excluded = (query.excludePaths ?? []).map((p) => p.replace(/^\/+|\/+$/g, ''));
  const passesGlob = globFilter(query.glob);
  const baseRel = target.relative;
  const walk = { root: target.workdir, base: target.real, includeHidden: false, respectGitignore: true, keepIgnoredFiles: true, listOnlyDirs: new Set<string>(), excludeDirs, pathOrder: true };
  const judges = new Map<boolean, PathJudge>();
  const judge = (statFolders: boolean): PathJudge => {
    let j = judges.get(statFolders);
    if (!j) {
      j = createPathJudge(fs, { root: target.workdir, base: target.real, includeHidden: false, respectGitignore: true, excludeDirs, statFolders });
      judges.set(statFolders, j);
    }
    return j;
  };
  const walked = (relRoot: string, ignored: boolean): boolean => {
    if (isSecretPath(relRoot) || excluded.some((p) => relRoot === p || relRoot.startsWith(`${p}/`))) return false;
    return passesGlob(baseRel ? relRoot.slice(baseRel.length + 1) : relRoot, ignored);
  };
  // Both engines never follow a symlink inside the tree they walk, so every path they report is
  // real — unless the target itself was reached through one (ripgrep follows a link it is given).
  const throughLink = target.path !== target.real;
  return {
    target,
    open,
    secrets,
    walk,
    walked,
    targetFile() {
      const name = target.relative.split('/').pop() ?? target.relative;
      return !isSecretPath(target.relative) && passesGlob(name, false);
    },
    named(relRoot, options = {}) {
      const j = judge(options.statFolders !== false);
      const verdict = options.catalogued ? j.listed(relRoot) : j.judge(relRoot);
      return verdict !== undefined && walked(relRoot, verdict.ignored);
    },
    shown(relRoot) {
      if (isSecretPath(relRoot)) return false;
      return !throughLink || judgeSecretPath(fs, workdirs, relRoot, path.join(target.workdir, relRoot)) === undefined;
    },
    openedText: (relRoot, into) => openedText(fs, target.workdir, secrets, relRoot, into),
    verified: (files) => verifiedFiles(fs, target.workdir, secrets, files),
    dropSecretCounts: (counts, holdingNeedles) => dropSecretCounts(fs, target.workdir, secrets, counts, holdingNeedles),
    rgWalkArgs() {
      const args: string[] = [];
      // `!name/`: a folder of that name at any depth, never entered (the walk's rule); cheaper than
      // `!**/name/**`, which is matched against every file path.
      for (const d of excludeDirs) args.push('--glob', `!${d}/`);
      for (const p of excluded) args.push('--glob', `!/${p}/**`);
      if (query.glob) args.push('--glob', query.glob);
      for (const g of SECRET_EXCLUDE_GLOBS) args.push('--iglob', g);
      return args;
    },
  };
}
