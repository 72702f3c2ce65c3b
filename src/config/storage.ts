// Which storage backend serves the shared knowledge, and where it is. The URL comes from the config's
// `storage.url` or CTXGATE_DATABASE_URL (the environment wins, so a secret need not sit in a committed
// config file). Every message that names the URL names it without its password.
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { redactUrl } from '../storage/postgres/redact.ts';
import { normaliseProjectKey } from './project-key-text.ts';
import type { Config } from './schema.ts';

export type StorageSettings =
  /** `warning`: one line for the start, e.g. a database URL given that the SQLite backend ignores. */
  | { backend: 'sqlite'; warning?: string }
  | { backend: 'postgres'; url: string; projectKey: string | undefined };

export const DATABASE_URL_ENV = 'CTXGATE_DATABASE_URL';

export function resolveStorageSettings(runtime: Pick<Runtime, 'env'>, storage: Config['storage']): StorageSettings {
  const fromEnv = runtime.env.get(DATABASE_URL_ENV) || undefined;
  if (storage.backend === 'sqlite') {
    if (storage.url) {
      throw new AppError(ErrorCode.Config, `storage.url is set (${redactUrl(storage.url)}) but storage.backend is sqlite`, {
        hint: 'set storage.backend: postgres to use that database, or remove storage.url',
      });
    }
    if (fromEnv) {
      return {
        backend: 'sqlite',
        warning: `ctxgate: ${DATABASE_URL_ENV} is set (${redactUrl(fromEnv)}) but storage.backend is sqlite, so it is ignored; to share the knowledge base through that database, set storage.backend: postgres in the config file`,
      };
    }
    return { backend: 'sqlite' };
  }
  const url = fromEnv ?? storage.url;
  if (!url) {
    throw new AppError(ErrorCode.Config, 'storage.backend is postgres but no database URL is given', {
      hint: `set ${DATABASE_URL_ENV}=postgres://USER:PASSWORD@HOST:5432/DB (or storage.url in the config file)`,
    });
  }
  checkPostgresUrl(url, fromEnv ? DATABASE_URL_ENV : 'storage.url');
  return { backend: 'postgres', url, projectKey: storage.projectKey === undefined ? undefined : normaliseProjectKey(storage.projectKey) };
}

function checkPostgresUrl(url: string, where: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError(ErrorCode.Config, `${where} is not a URL: ${redactUrl(url)}`, { hint: 'write it as postgres://USER:PASSWORD@HOST:5432/DB' });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new AppError(ErrorCode.Config, `${where} must be a postgres:// or postgresql:// URL, not ${parsed.protocol}//…`, {
      hint: 'write it as postgres://USER:PASSWORD@HOST:5432/DB',
    });
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) {
    throw new AppError(ErrorCode.Config, `${where} names no host: ${redactUrl(url)}`, { hint: 'write it as postgres://USER:PASSWORD@HOST:5432/DB' });
  }
}
