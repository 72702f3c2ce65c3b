// Files that look like they hold secrets. Their content is never read, searched, indexed or handed to
// code by any tool (ctxmode spec, Security model): .env/.env.*, .envrc, anything under a .env/ folder,
// private keys, credentials.json, .npmrc, .netrc, .docker/config.json, and anything under .aws/ .ssh/
// .gnupg/ .kube/. A file is judged by its name as given and by where it really is (issue 11: an
// `env_alias.txt -> .env` symlink is as secret as `.env`). Their names may still be listed.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import { isInside, type Workdirs } from './resolve-safe.ts';

const KEY_NAMES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk'];
const SECRET_NAMES: ReadonlyMap<string, string> = new Map([
  ...KEY_NAMES.map((n) => [n, `SSH private key files: ${KEY_NAMES.join(', ')}`] as const),
  ['.envrc', '.envrc files'],
  ['credentials.json', 'credentials.json files'],
  ['.npmrc', '.npmrc files (registry tokens)'],
  ['.netrc', '.netrc files (login passwords)'],
  ['_netrc', '.netrc files (login passwords)'],
  ['.git-credentials', '.git-credentials files (stored git passwords)'],
  ['.pgpass', '.pgpass files (PostgreSQL passwords)'],
  ['.pypirc', '.pypirc files (package index passwords)'],
  ['.htpasswd', '.htpasswd files (password hashes)'],
  ['terraform.tfstate', 'Terraform state files (*.tfstate: resource secrets in clear text)'],
]);
const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.ppk', '.jks', '.keystore', '.tfstate'];
const SECRET_DIRS = new Set(['.env', '.aws', '.ssh', '.gnupg', '.kube']);
/**
 * Backup and editor copies keep a secret's content under a longer name (issue 23, item 4): `.env~`,
 * `id_rsa.bak`, `server.pem.orig`, Emacs's `#.env#` and `.#.env`, Vim's `.id_rsa.swp`.
 */
const BACKUP_SUFFIXES = ['~', '.bak', '.orig', '.old', '.save', '.backup', '.bk', '.tmp', '.swp', '.swo', '.swx'];
const PRIVATE_KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/;

/** What every refusal tells the caller to do: the spec has no allowlist, so no setting lifts the rule. */
export const SECRET_RULES_HINT =
  'no tool shows the content of a secret-like file, under any name or through any symlink, and no setting changes that; ask the user for the values you need';

function segments(p: string): string[] {
  return p.split('/').filter((s) => s && s !== '.');
}

/** The rule a bare file name (lower case) falls under, without backup variants. */
function nameRule(name: string, parent: string | undefined): string | undefined {
  if (name === '.env' || name.startsWith('.env.')) return '.env and .env.* files';
  const named = SECRET_NAMES.get(name);
  if (named) return named;
  const ext = SECRET_EXTENSIONS.find((e) => name.endsWith(e));
  if (ext === '.tfstate') return SECRET_NAMES.get('terraform.tfstate');
  if (ext) return `*${ext} files (private keys and certificates)`;
  if (name === 'config.json' && parent === '.docker') return '.docker/config.json (registry credentials)';
  return undefined;
}

/** The names a backup or editor copy may have been made from (`#.env#` → `.env`), the name itself first. */
function originalNames(name: string): string[] {
  const out = [name];
  let n = name;
  for (let i = 0; i < 4; i++) {
    const before = n;
    if (n.length > 2 && n.startsWith('#') && n.endsWith('#')) n = n.slice(1, -1);
    else if (n.startsWith('.#') && n.length > 2) n = n.slice(2);
    else {
      const suffix = BACKUP_SUFFIXES.find((x) => n.endsWith(x) && n.length > x.length);
      if (suffix) {
        n = n.slice(0, -suffix.length);
        // Vim's swap file of `id_rsa` is `.id_rsa.swp`.
        if (suffix.startsWith('.sw') && n.startsWith('.') && !out.includes(n)) out.push(n.slice(1));
      }
    }
    if (n === before) break;
    out.push(n);
  }
  return out;
}

/**
 * The rule a file path (relative, `/`-separated) falls under, or undefined when it is not secret-like.
 * Names are compared without case (`.ENV` is `.env` on a case-insensitive file system, and a secret
 * there whatever its spelling), and a backup or editor copy of a secret is one too.
 */
export function secretReason(relativePath: string): string | undefined {
  const lower = relativePath.toLowerCase();
  // Most paths hold no needle: judged by a few substring tests (a search judges thousands of candidates).
  if (!mayBeSecret(lower)) return undefined;
  const parts = segments(lower);
  const name = parts[parts.length - 1];
  if (!name) return undefined;
  const dir = parts.slice(0, -1).find((p) => SECRET_DIRS.has(p));
  if (dir) return `anything under a ${dir}/ folder`;
  const parent = parts[parts.length - 2];
  const names = originalNames(name);
  for (const [i, n] of names.entries()) {
    const rule = nameRule(n, parent);
    if (rule) return i === 0 ? rule : `${rule}, and backup or editor copies of them`;
  }
  return undefined;
}

/** The rule a folder falls under when everything in it is secret (it is, or lies in, .ssh/ and the like). */
export function secretFolderReason(relativePath: string): string | undefined {
  const dir = segments(relativePath.toLowerCase()).find((p) => SECRET_DIRS.has(p));
  return dir ? `anything under a ${dir}/ folder` : undefined;
}

export function isSecretPath(relativePath: string): boolean {
  return secretReason(relativePath) !== undefined;
}

/** True when text holds a PEM private key block (checked where whole files are kept: the knowledge base). */
export function holdsPrivateKey(text: string): boolean {
  return PRIVATE_KEY_BLOCK.test(text);
}

export interface SecretMatch {
  /** The rule that matched, in words (".env and .env.* files"). */
  rule: string;
  /** Where a symlink led when the name as given looked harmless: relative to its workdir, else absolute. */
  leadsTo?: string;
}

/** A real path relative to the workdir holding it (`/`-separated), or absolute when none does. */
function realRelative(workdirs: Workdirs, real: string): string {
  const dir = workdirs.dirs.find((d) => isInside(d, real));
  return (dir ? path.relative(dir, real) : real).split(path.sep).join('/');
}

/**
 * The one judgement every tool that shows file content makes: a file or folder is secret when its
 * name as given, or its real path after every symlink, falls under a rule.
 */
export function judgeSecret(workdirs: Workdirs, target: { relative: string; real: string; folder?: boolean }): SecretMatch | undefined {
  const rules = target.folder ? secretFolderReason : secretReason;
  const named = rules(target.relative);
  if (named) return { rule: named };
  const real = realRelative(workdirs, target.real);
  const leads = rules(real);
  return leads ? { rule: leads, leadsTo: real || '.' } : undefined;
}

/**
 * judgeSecret for a path whose real location is not known yet (a walk entry, a hit): follows its
 * symlinks first. `shown` is the path as the caller names it. A dangling link is judged by its name.
 */
export function judgeSecretPath(fs: Pick<RuntimeFs, 'realpathSync' | 'statSync'>, workdirs: Workdirs, shown: string, abs: string): SecretMatch | undefined {
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    return judgeSecret(workdirs, { relative: shown, real: abs });
  }
  return judgeSecret(workdirs, { relative: shown, real, folder: fs.statSync(real)?.isDirectory === true });
}

/** The refusal a tool answers with: which path, which rule (and the symlink that led there), what to do. */
export function secretRefusal(shown: string, match: SecretMatch, refused: string): AppError {
  const what = match.leadsTo ? `'${shown}' leads to '${match.leadsTo}' through a symlink, which` : `'${shown}'`;
  return new AppError(ErrorCode.SecretRefused, `${what} is treated as a secret (rule: ${match.rule}), so it is not ${refused}`, { hint: SECRET_RULES_HINT });
}

/** Every name a secret file or its backup copy can have, as globs (matched without case: rg --iglob). */
function secretFileGlobs(): string[] {
  const bases = ['.env', '.env.*', ...SECRET_NAMES.keys(), ...SECRET_EXTENSIONS.map((e) => `*${e}`)];
  const globs: string[] = [];
  for (const b of bases) {
    globs.push(b, `#${b}#`, `.#${b}`, `.${b}.sw?`);
    for (const x of BACKUP_SUFFIXES) globs.push(`${b}${x}`);
  }
  return globs;
}

/**
 * Text every secret-like path holds (compared without case): a file name holds one of `names`
 * (a secret name, its copies and backups are that name with more around it), or a folder of
 * `folders` is on its path. A prefilter for a lister that cannot run secretReason (find's -iname,
 * ASCII case only): what it lists is judged by secretReason.
 */
export function secretNeedles(): { names: string[]; folders: string[] } {
  // Shortened to parts they share (a lister then lists a few more files, each judged by secretReason):
  // every key name starts id_, both credentials files hold "credentials", both netrc spellings "netrc".
  const shortened = (n: string) => (n.startsWith('id_') ? 'id_' : n.includes('credentials') ? 'credentials' : n.includes('netrc') ? 'netrc' : n);
  const all = [...new Set(['.env', ...SECRET_NAMES.keys(), ...SECRET_EXTENSIONS, 'config.json'].map(shortened))];
  // A needle holding a shorter one adds nothing (.envrc holds .env, .keystore .key, terraform.tfstate .tfstate).
  const names = all.filter((n) => !all.some((m) => m !== n && n.includes(m)));
  return { names, folders: [...SECRET_DIRS] };
}

let needles: readonly string[] | undefined;

/** Whether a path (lower case) holds any of secretNeedles: every secret-like path does. */
function mayBeSecret(lower: string): boolean {
  needles ??= (({ names, folders }) => [...new Set([...names, ...folders])])(secretNeedles());
  for (const n of needles) if (lower.includes(n)) return true;
  return false;
}

/**
 * ripgrep globs that exclude the same files by name; give them with --iglob (case-insensitive) after
 * any user glob, so they win. One brace set: ripgrep matches it as one glob.
 */
export const SECRET_EXCLUDE_GLOBS: readonly string[] = [
  `!**/{${secretFileGlobs().join(',')}}`,
  '!**/.docker/config.json',
  ...[...SECRET_DIRS].map((d) => `!**/${d}/**`),
];

/** git pathspecs that leave the same files out of a diff, whichever folder git runs in (git globs know no braces). */
export const SECRET_EXCLUDE_PATHSPECS: readonly string[] = [...secretFileGlobs().map((g) => `**/${g}`), '**/.docker/config.json', ...[...SECRET_DIRS].map((d) => `**/${d}/**`)].map(
  (g) => `:(top,exclude,glob,icase)${g}`,
);
