// Command-line parsing: `ctxgate [serve|call|doctor|stats|tools|init|users] [options]`. Usage mistakes throw AppError(Usage).
import { parseArgs } from 'node:util';
import { GRAPH_BACKENDS, type GraphBackend } from '../config/choices.ts';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { CommonOptions } from '../app/bootstrap.ts';
import { CLIENT_IDS, type ClientId } from '../clients/catalog.ts';
import { projectKeyProblem, userNameProblem } from '../users/user-names.ts';
import { normaliseProjectKey } from '../config/project-key-text.ts';
import { selectToolNames } from '../tools/names.ts';
import type { InitCommand } from './init.ts';

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'stdio'; common: CommonOptions }
  | { kind: 'serve'; common: CommonOptions; host: string; hostExplicit: boolean; port: number; allowedHosts: string[]; allowedOrigins: string[]; maxBodyBytes: number; rotateToken: boolean }
  | { kind: 'call'; common: CommonOptions; tool: string; args: unknown; json: boolean }
  | { kind: 'doctor'; common: CommonOptions; json: boolean }
  | { kind: 'stats'; common: CommonOptions; json: boolean }
  | { kind: 'tools'; common: CommonOptions; name?: string; json: boolean }
  | ({ kind: 'init' } & InitCommand)
  | { kind: 'users'; common: CommonOptions; action: UsersAction; json: boolean };

/** `users add NAME [--project KEY]…`, `users grant NAME --project KEY…`, `users list`, `users revoke NAME` (a team endpoint's people, issue 25). */
export type UsersAction =
  | { verb: 'add'; name: string; projects: string[] | 'all'; tools: string[] | 'all' }
  | { verb: 'grant'; name: string; projects: string[] }
  | { verb: 'list' }
  | { verb: 'revoke'; name: string };

export const USAGE = `ctxgate — MCP server that keeps an AI coding agent's context small

Usage:
  ctxgate [options]                      stdio MCP server (what MCP clients launch)
  ctxgate serve [options]                MCP over Streamable HTTP at /mcp, health at /healthz
  ctxgate call TOOL ['JSON-ARGS'] [--json]  one tool call, result printed
  ctxgate doctor [--json]                what is available on this machine
  ctxgate stats [--json]                 savings, the gate's decisions, recent calls, the knowledge base
  ctxgate tools [NAME] [--json]          each tool's parameters (the schemas tools/list sends)
  ctxgate init [init options]            configure MCP clients to start this ctxgate
  ctxgate hook pre-tool-use|session-start   Claude Code hooks (installed by init --hooks)
  ctxgate users add NAME [--project KEY]… [--tools LIST]   issue a user a token for a team
                                         endpoint (Postgres), printed once; no --project: every
                                         project; no --tools: every tool (ctx_run runs commands)
  ctxgate users grant NAME --project KEY…   let an existing user's token into more projects
  ctxgate users list [--json]            the users, their projects, revoked or not
  ctxgate users revoke NAME              the user's token stops working at once
  ctxgate --help | --version

Options:
  --project-root DIR     project root (else CODE_CONTEXT_GATE_ROOT, CTXGATE_ROOT, the cwd)
  --config FILE          JSON or YAML config (else CTXGATE_CONFIG, CTXMODE_CONFIG,
                         ./ctxgate.config.{json,yaml}, ~/.config/ctxgate/config.{json,yaml})
  --graph-backend NAME   ${GRAPH_BACKENDS.join(' | ')}
  --tools LIST           offer only these tools: names or gate | context | all (comma list)
  --log-file FILE        NDJSON event log (default: ctxgate.log in the data dir)
  --debug                also write log events to stderr

serve options:
  --host ADDR            bind address (default 127.0.0.1; a non-loopback address prints a warning)
  --port N               port (default 8787; 0 picks a free one)
  --allowed-host NAME    accept this Host header too (repeatable)
  --allowed-origin URL   accept this Origin too (repeatable)
  --max-body BYTES       request body limit (default 4194304)
  --rotate-token         replace the saved bearer token with a new one, then serve

init options:
  --client NAME          ${CLIENT_IDS.join(' | ')} | all (repeatable; default claude-code)
  --runtime node|deno    what the client starts ctxgate with (default: the one running init)
  --launcher path|npx    path (default): this copy by absolute path; npx: \`npx -y ctxgate\`, the
                         package published on npm
  --no-check             do not start the written command to check that it answers
  --http URL             point the clients at a running \`ctxgate serve\` (token from CTXGATE_TOKEN)
  --instructions         add the routing block to CLAUDE.md / AGENTS.md / GEMINI.md
  --hooks                add Claude Code's PreToolUse steering and SessionStart reminder hooks
  --dry-run              show the diff, write nothing
  --keep-env             keep launch settings of an existing entry that load code (NODE_OPTIONS, LD_PRELOAD …)

Environment: CTXGATE_TOKEN (HTTP bearer token; else the one saved in the data dir),
CTXGATE_DATA_DIR, CTXGATE_LOG_FILE, CTXGATE_HOST, CTXGATE_PORT,
CTXGATE_ENV_PASSTHROUGH / CTXMODE_ENV_PASSTHROUGH.
`;

const OPTIONS = {
  'project-root': { type: 'string' },
  config: { type: 'string' },
  'graph-backend': { type: 'string' },
  tools: { type: 'string', multiple: true },
  'log-file': { type: 'string' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'max-body': { type: 'string' },
  'rotate-token': { type: 'boolean' },
  json: { type: 'boolean' },
  client: { type: 'string', multiple: true },
  runtime: { type: 'string' },
  launcher: { type: 'string' },
  'no-check': { type: 'boolean' },
  http: { type: 'string' },
  'dry-run': { type: 'boolean' },
  instructions: { type: 'boolean' },
  hooks: { type: 'boolean' },
  'keep-env': { type: 'boolean' },
  project: { type: 'string', multiple: true },
} as const;

const SERVE_ONLY = ['host', 'port', 'allowed-host', 'allowed-origin', 'max-body', 'rotate-token'] as const;
const INIT_ONLY = ['client', 'runtime', 'launcher', 'no-check', 'http', 'dry-run', 'instructions', 'hooks', 'keep-env'] as const;

function usage(message: string): AppError {
  return new AppError(ErrorCode.Usage, message, { hint: 'run ctxgate --help for the usage' });
}

function wholeNumber(value: string, what: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw usage(`${what} must be a whole number from ${min} to ${max} (got '${value}')`);
  return Number(value);
}

/** An option this command line does not have, named with the nearest one that exists (checked before parseArgs, whose own text talks about positionals). */
function checkOptionNames(argv: readonly string[]): void {
  const shorts = new Map<string, string>(Object.entries(OPTIONS).flatMap(([name, o]) => ('short' in o ? [[o.short, name] as [string, string]] : [])));
  for (const arg of argv) {
    if (arg === '--') return;
    if (!arg.startsWith('-') || arg === '-') continue;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0]!;
      if (name in OPTIONS) continue;
      const near = Object.keys(OPTIONS).find((o) => o.startsWith(name) || name.startsWith(o));
      throw usage(`unknown option '--${name}'${near ? ` (did you mean --${near}?)` : ''}`);
    }
    for (const letter of arg.slice(1)) {
      if (!shorts.has(letter)) throw usage(`unknown option '-${letter}'${arg.length > 2 ? ` in '${arg}'` : ''}`);
    }
  }
}

/** parseArgs' remaining complaints (a value missing, a value given to a switch), in our words. */
function parseFailure(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  const option = /'(--?[\w-]+)/.exec(messageOf(error))?.[1];
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    const name = option.replace(/^-+/, '');
    const spec = (OPTIONS as Record<string, { type: string }>)[name];
    return usage(spec?.type === 'boolean' ? `${option} takes no value` : `${option} needs a value`);
  }
  return usage(messageOf(error));
}

export function parseCommand(argv: readonly string[], env: (name: string) => string | undefined): Command {
  checkOptionNames(argv);
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw parseFailure(error);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };

  const backend = v['graph-backend'];
  if (backend !== undefined && !(GRAPH_BACKENDS as readonly string[]).includes(backend)) {
    throw usage(`--graph-backend must be one of ${GRAPH_BACKENDS.join(', ')} (got '${backend}')`);
  }
  const common: CommonOptions = {
    projectRoot: v['project-root'],
    config: v.config,
    graphBackend: backend as GraphBackend | undefined,
    ...(v.tools ? { tools: v.tools } : {}),
    logFile: v['log-file'],
    debug: v.debug ?? false,
  };
  const [command, ...rest] = positionals;
  if (command !== 'serve') {
    const misplaced = SERVE_ONLY.find((name) => v[name] !== undefined);
    if (misplaced) throw usage(`--${misplaced} belongs to 'ctxgate serve'`);
  }
  if (v.json !== undefined && !['call', 'doctor', 'stats', 'tools', 'users'].includes(command ?? '')) throw usage("--json belongs to 'ctxgate call', 'ctxgate doctor', 'ctxgate stats', 'ctxgate tools' and 'ctxgate users list'");
  if (v.project !== undefined && !(command === 'users' && (rest[0] === 'add' || rest[0] === 'grant'))) throw usage("--project belongs to 'ctxgate users add' and 'ctxgate users grant'");
  if (command !== 'init') {
    const misplaced = INIT_ONLY.find((name) => v[name] !== undefined);
    if (misplaced) throw usage(`--${misplaced} belongs to 'ctxgate init'`);
  }

  switch (command) {
    case undefined:
      return { kind: 'stdio', common };
    case 'serve': {
      if (rest.length) throw usage(`unexpected argument '${rest[0]}' after serve`);
      const hostFlag = v.host ?? env('CTXGATE_HOST');
      const portText = v.port ?? env('CTXGATE_PORT') ?? '8787';
      return {
        kind: 'serve',
        common,
        host: hostFlag ?? '127.0.0.1',
        hostExplicit: hostFlag !== undefined,
        port: wholeNumber(portText, '--port', 0, 65535),
        allowedHosts: v['allowed-host'] ?? [],
        allowedOrigins: v['allowed-origin'] ?? [],
        maxBodyBytes: v['max-body'] === undefined ? 4 * 1024 * 1024 : wholeNumber(v['max-body'], '--max-body', 1024, 256 * 1024 * 1024),
        rotateToken: v['rotate-token'] ?? false,
      };
    }
    case 'call': {
      const [tool, json, extra] = rest;
      if (!tool) throw usage("'ctxgate call' needs a tool name, e.g. ctxgate call ctx_fs '{\"action\":\"ls\"}'");
      if (extra !== undefined) throw usage(`unexpected argument '${extra}'; pass the tool's arguments as one JSON object`);
      let args: unknown = {};
      if (json !== undefined) {
        try {
          args = JSON.parse(json);
        } catch (error) {
          throw usage(`the arguments are not valid JSON: ${messageOf(error)}`);
        }
      }
      return { kind: 'call', common, tool, args, json: v.json ?? false };
    }
    case 'doctor':
      if (rest.length) throw usage(`unexpected argument '${rest[0]}' after doctor`);
      return { kind: 'doctor', common, json: v.json ?? false };
    case 'stats':
      if (rest.length) throw usage(`unexpected argument '${rest[0]}' after stats`);
      return { kind: 'stats', common, json: v.json ?? false };
    case 'tools':
      if (rest.length > 1) throw usage(`unexpected argument '${rest[1]}'; name one tool, or none for all`);
      return { kind: 'tools', common, ...(rest[0] ? { name: rest[0] } : {}), json: v.json ?? false };
    case 'init':
      if (rest.length) throw usage(`unexpected argument '${rest[0]}' after init`);
      return { kind: 'init', ...initOptions(v, common) };
    case 'users':
      return { kind: 'users', common, action: usersAction(rest, v.project, v.json, v.tools), json: v.json ?? false };
    default:
      throw usage(`unknown command '${command}'`);
  }
}

function usersAction(rest: string[], projects: string[] | undefined, json: boolean | undefined, tools: string[] | undefined): UsersAction {
  const [verb, name, extra] = rest;
  if (verb !== 'add' && verb !== 'grant' && verb !== 'list' && verb !== 'revoke') {
    throw usage(verb === undefined ? "'ctxgate users' needs add, grant, list or revoke, e.g. ctxgate users add alice" : `unknown users command '${verb}'; use add, grant, list or revoke`);
  }
  if (json !== undefined && verb !== 'list') throw usage("--json belongs to 'ctxgate users list'");
  if (tools !== undefined && verb !== 'add') throw usage("--tools with 'ctxgate users' belongs to 'users add' (the tools the new token may use); to change them, revoke and add the user again");
  if (verb === 'list') {
    if (name !== undefined) throw usage(`unexpected argument '${name}' after users list`);
    return { verb };
  }
  if (name === undefined) throw usage(`'ctxgate users ${verb}' needs a user name, e.g. ctxgate users ${verb} alice`);
  if (extra !== undefined) throw usage(`unexpected argument '${extra}' after users ${verb} ${name}; name one user`);
  const problem = userNameProblem(name);
  if (problem) throw usage(problem);
  if (verb === 'revoke') return { verb, name };
  const given = (projects ?? []).flatMap((p) => p.split(',')).map((p) => p.trim());
  for (const key of given) {
    const wrong = projectKeyProblem(key);
    if (wrong) throw usage(`--project: ${wrong}`);
  }
  // Normalised as servers work out their key: a remote URL given here matches the project's key.
  const keys = [...new Set(given.map(normaliseProjectKey))];
  if (verb === 'grant') {
    if (!keys.length) throw usage(`'ctxgate users grant ${name}' needs the projects to grant, e.g. ctxgate users grant ${name} --project github.com/acme/shop`);
    return { verb, name, projects: keys };
  }
  return { verb, name, projects: keys.length ? keys : 'all', tools: userTools(tools) };
}

/** `--tools` of `users add`: names or groups, checked against the tools there are; 'all' without it. */
function userTools(given: string[] | undefined): string[] | 'all' {
  if (given === undefined) return 'all';
  if (given.some((g) => g.split(',').some((t) => t.trim() === 'all'))) return 'all';
  try {
    return selectToolNames(given, '--tools');
  } catch (error) {
    throw usage(error instanceof AppError ? `${error.message}; ${error.hint ?? ''}`.replace(/; $/, '') : String(error));
  }
}

function initOptions(
  v: { client?: string[]; runtime?: string; launcher?: string; 'no-check'?: boolean; http?: string; 'dry-run'?: boolean; instructions?: boolean; hooks?: boolean; 'keep-env'?: boolean },
  common: CommonOptions,
): InitCommand {
  const named = (v.client ?? ['claude-code']).flatMap((c) => c.split(',')).map((c) => c.trim());
  for (const c of named) {
    if (c !== 'all' && !(CLIENT_IDS as readonly string[]).includes(c)) throw usage(`--client must be one of ${CLIENT_IDS.join(', ')}, all (got '${c}')`);
  }
  const clients = named.includes('all') ? [...CLIENT_IDS] : ([...new Set(named)] as ClientId[]);
  if (v.runtime !== undefined && v.runtime !== 'node' && v.runtime !== 'deno') throw usage(`--runtime must be node or deno (got '${v.runtime}')`);
  if (v.launcher !== undefined && v.launcher !== 'path' && v.launcher !== 'npx') throw usage(`--launcher must be path or npx (got '${v.launcher}')`);
  if (v.launcher !== undefined && v.http !== undefined) throw usage('--launcher and --http exclude each other: an HTTP entry starts nothing');
  if (v.http !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(v.http);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw usage(`--http must be an http(s) URL such as http://127.0.0.1:8787/mcp (got '${v.http}')`);
  }
  return {
    ...(common.projectRoot ? { projectRoot: common.projectRoot } : {}),
    clients,
    ...(v.runtime ? { runtime: v.runtime as 'node' | 'deno' } : {}),
    ...(v.launcher ? { launcher: v.launcher as 'path' | 'npx' } : {}),
    check: !v['no-check'],
    ...(v.http ? { http: v.http } : {}),
    dryRun: v['dry-run'] ?? false,
    instructions: v.instructions ?? false,
    hooks: v.hooks ?? false,
    ...(v['keep-env'] ? { keepEnv: true } : {}),
    ...(common.config ? { config: common.config } : {}),
    ...(common.graphBackend ? { graphBackend: common.graphBackend } : {}),
    ...(common.tools ? { tools: common.tools } : {}),
  };
}
