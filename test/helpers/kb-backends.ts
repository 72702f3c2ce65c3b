// The knowledge-base backends a test file runs its suite against: SQLite always, Postgres on a
// throwaway cluster of this file's own (skipped visibly when PostgreSQL cannot be had). A Postgres
// backend gives each app a config file naming the backend; the URL travels in CTXGATE_DATABASE_URL.
import { after } from 'node:test';
import path from 'node:path';
import { fixture, removeDir, writeFiles } from './env.ts';
import { type PgCluster, startCluster } from './postgres.ts';

export interface KbBackend {
  name: 'sqlite' | 'postgres';
  /** A reason to skip this backend's suite, or false. */
  skip: string | false;
  /** Environment for testApp: the config file and URL (Postgres), nothing (SQLite). `projectKey` pins the key. */
  env(projectKey?: string): Record<string, string | undefined>;
  /** The database URL (Postgres only). */
  url?: string;
}

/** SQLite and Postgres (one cluster for the whole file, removed when the file ends). */
export async function kbBackends(what: string): Promise<KbBackend[]> {
  const cluster: PgCluster | undefined = await startCluster(what);
  const configs = fixture();
  after(() => {
    cluster?.destroy();
    removeDir(configs);
  });
  const url = cluster ? await cluster.createDatabase('kb') : undefined;
  let n = 0;
  return [
    { name: 'sqlite', skip: false, env: () => ({}) },
    {
      name: 'postgres',
      skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)',
      ...(url ? { url } : {}),
      env(projectKey) {
        const file = `config-${++n}.yaml`;
        writeFiles(configs, { [file]: `storage:\n  backend: postgres\n${projectKey ? `  projectKey: ${JSON.stringify(projectKey)}\n` : ''}` });
        return { CTXGATE_CONFIG: path.join(configs, file), CTXGATE_DATABASE_URL: url };
      },
    },
  ];
}
