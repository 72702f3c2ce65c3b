// `ctxgate doctor`: what this machine offers ctxgate, and what is missing.
import { availableRuntimes } from '../exec/programs.ts';
import type { Language } from '../exec/languages.ts';
import { databaseBytes } from '../kb/open.ts';
import type { AppContext } from '../app/context.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { VERSION } from '../version.ts';
import { describeIndexOnDisk, type IndexOnDisk } from '../code/index.ts';
import { type DatabaseUse, databaseUse } from '../storage/database-users.ts';
import { type GraphBackendStatus, graphBackendStatus } from '../retrieval/graph-backends.ts';
import type { PostgresHealth } from '../storage/postgres/health.ts';

export interface DoctorReport {
  ctxgate: string;
  runtime: { name: string; version: string; platform: string };
  projectRoot: string;
  workdirs: readonly string[];
  configFile: string | null;
  dataDir: string;
  logFile: string | null;
  tools: { names: readonly string[]; listTokens: number };
  commands: Record<string, string | null>;
  /** ctx_run languages and the executable that runs each (null: missing). */
  languages: Record<Language, string | null>;
  /** The project's knowledge base: where, how big, and which processes have it open right now. */
  database: { file: string; bytes: number } & DatabaseUse;
  /** The storage backend of the shared knowledge; on Postgres, its health (the URL without its password). */
  storage: { backend: 'sqlite' } | ({ backend: 'postgres' } & PostgresHealth);
  /** The graph backend configured (`--graph-backend`, `backend.graph`), and who answers in its place when it cannot. */
  graph: GraphBackendStatus;
  /** What the code index on disk holds; null when its database cannot be read. */
  codeIndex: IndexOnDisk | null;
  warnings: string[];
}

const COMMANDS = ['git', 'rg', 'ctags'] as const;

export async function diagnose(app: AppContext, registry: ToolRegistry): Promise<DoctorReport> {
  const commands: Record<string, string | null> = {};
  for (const c of COMMANDS) commands[c] = app.runtime.which(c) ?? null;
  const warnings: string[] = [];
  if (!commands.git) warnings.push('git is not on PATH: ctx_git cannot work');
  if (!commands.rg) warnings.push('rg (ripgrep) is not on PATH: searches use the slower built-in engine');
  if (!app.runtime.fs.statSync(app.dataDir)?.isDirectory) warnings.push(`data dir ${app.dataDir} is missing: set CTXGATE_DATA_DIR to a writable folder`);
  if (!app.logger.file) warnings.push('file logging is off');
  const languages = availableRuntimes(app.runtime);
  const missing = Object.entries(languages).filter(([, cmd]) => !cmd).map(([lang]) => lang);
  if (missing.length) warnings.push(`ctx_run languages without a runtime here: ${missing.join(', ')}`);
  const graph = graphBackendStatus(app.config.backend.graph, app.runtime, app.projectRoot);
  if (graph.reason) {
    const instead = graph.answeredBy === graph.backend ? '' : '; the built-in code index answers instead';
    warnings.push(`graph backend ${graph.backend}: ${graph.reason}${instead}${graph.hint ? ` — ${graph.hint}` : ''}`);
  }
  const codeIndex = (await app.code.onDisk().catch(() => undefined)) ?? null;
  if (!codeIndex) warnings.push(`the code index cannot be read (${app.code.status().error ?? 'no database'}): gate answers come from scans`);
  const storage = await storageReport(app);
  if (storage.backend === 'postgres' && !storage.reachable) warnings.push(`the Postgres database is unreachable: ${storage.error}${storage.hint ? ` — ${storage.hint}` : ''}`);
  const dbFile = app.kb.file;
  const bytes = databaseBytes(app.runtime.fs, dbFile);
  return {
    ctxgate: VERSION,
    runtime: { name: app.runtime.name, version: app.runtime.version, platform: app.runtime.platform },
    projectRoot: app.projectRoot,
    workdirs: app.workdirs.dirs,
    configFile: app.configFile ?? null,
    dataDir: app.dataDir,
    logFile: app.logger.file ?? null,
    tools: { names: registry.names, listTokens: Math.ceil(JSON.stringify(registry.list()).length / app.config.estimation.charsPerToken) },
    commands,
    languages,
    database: { file: dbFile, bytes, ...databaseUse(app.runtime, dbFile) },
    storage,
    graph,
    codeIndex,
    warnings,
  };
}

async function storageReport(app: AppContext): Promise<DoctorReport['storage']> {
  if (app.storage.backend === 'sqlite') return { backend: 'sqlite' };
  // Loaded only here: a SQLite user's doctor never loads the Postgres driver.
  const { postgresHealth } = await import('../storage/postgres/health.ts');
  return { backend: 'postgres', ...(await postgresHealth(app.storage.url)) };
}

function formatStorage(s: DoctorReport['storage']): string[] {
  if (s.backend === 'sqlite') return ['storage       sqlite (the database file below)'];
  const schema = s.schema && Object.keys(s.schema).length ? Object.entries(s.schema).map(([c, v]) => `${c} v${v}`).join(', ') : 'not created yet';
  if (!s.reachable) return [`storage       postgres ${s.url} — unreachable`];
  return [`storage       postgres ${s.url} — reachable, server ${s.serverVersion}, schema ${schema}`];
}

function formatDatabase(d: DoctorReport['database']): string[] {
  const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
  const size = d.bytes >= 1024 * 1024 ? `${(d.bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(d.bytes / 1024)} KB`;
  const lines = [`database      ${d.file} (${d.bytes ? size : 'not created yet'})`];
  // A process on another machine (or container) is named with its host: its pid means nothing here.
  const host = (h: string | undefined) => (h === undefined ? '' : ` on ${h}`);
  const seen = (ms: number | undefined) => (ms === undefined ? '' : `, last seen ${time(ms)} UTC`);
  const users = d.users.map((u) => `pid ${u.pid}${host(u.host)} (${u.runtime}, since ${time(u.since)} UTC${seen(u.lastSeen)})`);
  lines.push(`  in use by   ${users.length ? users.join(', ') : 'no process right now'}`);
  if (d.writer) lines.push(`  writing     pid ${d.writer.pid}${host(d.writer.host)} (since ${time(d.writer.since)} UTC)`);
  return lines;
}

function formatGraph(g: GraphBackendStatus): string {
  const where = g.bin ? ` (${g.bin})` : '';
  if (g.answeredBy === g.backend) return `${g.backend}${where}`;
  return `${g.backend}${where} not answering — the built-in code index answers`;
}

export function formatDoctor(r: DoctorReport): string {
  const lines = [
    `ctxgate ${r.ctxgate} on ${r.runtime.name} ${r.runtime.version} (${r.runtime.platform})`,
    `project root  ${r.projectRoot}`,
    `workdirs      ${r.workdirs.join(', ')}`,
    `config        ${r.configFile ?? '(defaults)'}`,
    `data dir      ${r.dataDir}`,
    `log file      ${r.logFile ?? '(off)'}`,
    `tools         ${r.tools.names.length ? r.tools.names.join(', ') : '(none)'} (~${r.tools.listTokens} tokens per tools/list)`,
    ...Object.entries(r.commands).map(([name, where]) => `${name.padEnd(13)} ${where ?? 'not found'}`),
    `languages     ${Object.entries(r.languages).map(([lang, cmd]) => `${lang}${cmd ? '' : ' (missing)'}`).join(', ')}`,
    ...formatStorage(r.storage),
    // On Postgres the knowledge base has no file here: the storage line says everything.
    ...(r.storage.backend === 'sqlite' ? formatDatabase(r.database) : []),
    `graph         ${formatGraph(r.graph)}`,
    describeIndexOnDisk(r.codeIndex ?? undefined).replace(/^code index: /, 'code index    '),
  ];
  if (r.warnings.length) lines.push('', 'warnings:', ...r.warnings.map((w) => `  - ${w}`));
  return lines.join('\n');
}
