// A throwaway PostgreSQL cluster for one test file: a copy of a data folder initdb made (once per
// machine), pg_ctl on a free loopback port (and a private socket folder), stopped and removed when the
// file ends — also when it fails or is interrupted. When PostgreSQL cannot be had at all (no
// binaries; neither root nor the postgres user), startCluster answers undefined and the caller skips
// with the reason, visibly.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { atExit } from './at-exit.ts';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication: any password is accepted). */
  readonly url: string;
  readonly port: number;
  /** A URL for a fresh, empty database of this cluster. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown: connections are dropped) and starts it again on the same port. */
  restart(): void;
  stopServer(): void;
  startServer(): void;
  /** Stops the server and removes its folders (idempotent). */
  destroy(): void;
}

const PG_LIB = '/usr/lib/postgresql';

/** The newest installed PostgreSQL bin folder, or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(PG_LIB)) return undefined;
  const versions = readdirSync(PG_LIB)
    .filter((v) => existsSync(path.join(PG_LIB, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(PG_LIB, versions[0]!, 'bin') : undefined;
}

/** Why no cluster can be started here, or undefined when one can. */
export function postgresUnavailable(): string | undefined {
  if (!postgresBinDir()) return `PostgreSQL is not installed (no ${PG_LIB}/*/bin/initdb; Debian: apt-get install postgresql)`;
  const user = userInfo().username;
  if (user !== 'root' && user !== 'postgres') return `a PostgreSQL server must run as the postgres user, and this user (${user}) cannot switch to it: run the tests as root (they switch with runuser) or as postgres`;
  if (user === 'root' && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'there is no postgres user to run the server as';
  return undefined;
}

/** Prints the skip reason where a person running the tests sees it, and returns it for `skip:`. */
export function warnSkipped(what: string, reason: string): string {
  console.warn(`WARNING: ${what} skipped — ${reason}`);
  return reason;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const live = new Set<PgCluster>();
let exitHooked = false;
function destroyAllOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  const destroyAll = () => {
    for (const c of live) c.destroy();
  };
  atExit(destroyAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      destroyAll();
      process.exit(130);
    });
  }
}

const INITDB_ARGS = ['-A', 'trust', '-U', 'postgres', '-N', '-E', 'UTF8', '--locale=C'];

/**
 * A data folder initdb made once on this machine for this PostgreSQL version and user, kept in the
 * temp folder, that each cluster starts from a copy of: initdb costs ~1.2 s of CPU, a copy ~0.05 s,
 * and the suite starts over a dozen clusters. Made in a folder of its own and renamed into place once
 * initdb succeeded, so a half-made one is never copied (and of two files making it at once, one wins).
 */
function templateDataDir(bin: string, initdb: (dataDir: string) => void, ownByPostgres: (dir: string) => void): string {
  const template = path.join(tmpdir(), `ctxgate-pg-template-${path.basename(path.dirname(bin))}-${userInfo().uid}-${INITDB_ARGS.join('').replace(/\W/g, '')}`);
  if (existsSync(path.join(template, 'PG_VERSION'))) return template;
  const making = mkdtempSync(`${template}.making-`);
  try {
    ownByPostgres(making);
    initdb(path.join(making, 'data'));
    try {
      renameSync(path.join(making, 'data'), template);
    } catch (error) {
      if (!existsSync(path.join(template, 'PG_VERSION'))) throw error;
    }
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return template;
}

/** Starts a cluster, or answers undefined (with a printed warning) when PostgreSQL cannot be had. */
/** `durable`: keep fsync on (benchmarks); tests run without it, as nothing must survive a power cut. */
export async function startCluster(what = 'the Postgres tests', options: { durable?: boolean } = {}): Promise<PgCluster | undefined> {
  const reason = postgresUnavailable();
  if (reason) {
    warnSkipped(what, reason);
    return undefined;
  }
  const bin = postgresBinDir()!;
  const asRoot = userInfo().username === 'root';
  const pgUid = asRoot ? Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()) : -1;
  const pgGid = asRoot ? Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) : -1;
  const run = (program: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  };
  const root = mkdtempSync(path.join(tmpdir(), 'ctxgate-pg-'));
  const dataDir = path.join(root, 'data');
  const sockDir = path.join(root, 'sock');
  mkdirSync(sockDir);
  const ownByPostgres = (dir: string) => {
    if (asRoot) chownSync(dir, pgUid, pgGid);
  };
  for (const dir of [root, sockDir]) ownByPostgres(dir);
  const port = await freePort();
  let running = false;
  let destroyed = false;
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async createDatabase(name) {
      const { default: postgres } = await import('postgres');
      const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await sql.end({ timeout: 1 });
      }
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    startServer() {
      run('pg_ctl', ['-D', dataDir, '-l', path.join(root, 'server.log'), '-o', `-p ${port} -k ${sockDir} -c listen_addresses=127.0.0.1${options.durable ? '' : ' -c fsync=off -c full_page_writes=off'}`, '-w', 'start']);
      running = true;
    },
    stopServer() {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    restart() {
      cluster.stopServer();
      cluster.startServer();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      live.delete(cluster);
      if (running) {
        try {
          run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        } catch {
          // Already gone: the folders go anyway.
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  live.add(cluster);
  destroyAllOnExit();
  try {
    const template = templateDataDir(bin, (dir) => run('initdb', ['-D', dir, ...INITDB_ARGS]), ownByPostgres);
    // -a keeps the owner (postgres) and the 0700 mode the server insists on.
    const copied = spawnSync('cp', ['-a', template, dataDir], { encoding: 'utf8' });
    if (copied.status !== 0) throw new Error(`could not copy the initdb template ${template}: ${copied.stderr}`);
    cluster.startServer();
  } catch (error) {
    cluster.destroy();
    throw error;
  }
  return cluster;
}
