// Files that look like they hold secrets. They are never indexed, searched or listed as search hits
// (ctxmode spec, Security model): .env/.env.*, .envrc, anything under a .env/ folder, private keys,
// credentials.json, .npmrc, .netrc, .docker/config.json, and anything under .aws/ .ssh/ .gnupg/ .kube/.
const SECRET_NAMES = new Set(['.envrc', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'credentials.json', '.npmrc', '.netrc']);
const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx'];
const SECRET_DIRS = new Set(['.env', '.aws', '.ssh', '.gnupg', '.kube']);

/** Why a path (relative, `/`-separated) is secret-like, or undefined when it is not. */
export function secretReason(relativePath: string): string | undefined {
  const parts = relativePath.split('/').filter((p) => p && p !== '.');
  const name = parts[parts.length - 1];
  if (!name) return undefined;
  const dir = parts.slice(0, -1).find((p) => SECRET_DIRS.has(p));
  if (dir) return `it is under a ${dir}/ folder`;
  if (name === '.env' || name.startsWith('.env.')) return 'it is a .env file';
  if (SECRET_NAMES.has(name)) return `${name} files hold credentials`;
  const ext = SECRET_EXTENSIONS.find((e) => name.endsWith(e));
  if (ext) return `*${ext} files hold private keys or certificates`;
  if (name === 'config.json' && parts[parts.length - 2] === '.docker') return '.docker/config.json holds registry credentials';
  return undefined;
}

export function isSecretPath(relativePath: string): boolean {
  return secretReason(relativePath) !== undefined;
}

/** ripgrep globs that exclude the same files (given after any user glob, so they win). */
export const SECRET_EXCLUDE_GLOBS: readonly string[] = [
  '!**/.env',
  '!**/.env.*',
  '!**/.envrc',
  '!**/.env/**',
  '!**/*.pem',
  '!**/*.key',
  '!**/*.p12',
  '!**/*.pfx',
  ...['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'credentials.json', '.npmrc', '.netrc'].map((n) => `!**/${n}`),
  '!**/.docker/config.json',
  ...['.aws', '.ssh', '.gnupg', '.kube'].map((d) => `!**/${d}/**`),
];
