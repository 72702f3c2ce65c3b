// The MCP clients `ctxgate init` configures: where each keeps its server list, in what shape, and
// what the user still has to do before the client starts ctxgate (trust, approval).
import * as path from 'node:path';
import type { Launch } from './launch.ts';

export const CLIENT_IDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'gemini'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** The server's name in every config (Claude Code shows its tools as mcp__ctxgate__locate …). */
export const SERVER_NAME = 'ctxgate';

/** The environment variable an HTTP entry reads the bearer token from (never the token itself). */
export const TOKEN_VARIABLE = 'CTXGATE_TOKEN';

export interface Where {
  projectRoot: string;
  home: string;
  platform: string;
  env(name: string): string | undefined;
}

export interface ClientSpec {
  id: ClientId;
  label: string;
  configFile(where: Where): string;
  format: 'json' | 'toml';
  /** Key of the server map (JSON) or table (TOML). */
  serversKey: string;
  /** The config starts ctxgate outside the project (a GUI app): the entry names the project root. */
  global: boolean;
  stdioEntry(launch: Launch, where: Where): Record<string, unknown>;
  /** undefined: the client's config file cannot hold an HTTP server. */
  httpEntry(url: string): Record<string, unknown> | undefined;
  /** Extra top-level entries some clients need beside the server (VS Code's token prompt). */
  httpExtras?: { key: string; item: Record<string, unknown> };
  /** What the user does next so the client actually starts ctxgate. */
  trustStep: string;
  /** The instructions file this client's agent reads from the project root. */
  instructionsFile?: string;
}

const bearer = (reference: string) => ({ Authorization: `Bearer ${reference}` });

/** A client-side variable reference, `${name}`: the clients expand it, ctxgate writes it as text. */
export function clientVariable(name: string): string {
  return '$' + '{' + name + '}';
}

function claudeDesktopConfig(where: Where): string {
  if (where.platform === 'darwin') return path.join(where.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (where.platform === 'win32') return path.join(where.env('APPDATA') ?? path.join(where.home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return path.join(where.env('XDG_CONFIG_HOME') ?? path.join(where.home, '.config'), 'Claude', 'claude_desktop_config.json');
}

export const CLIENTS: Record<ClientId, ClientSpec> = {
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    configFile: (w) => path.join(w.projectRoot, '.mcp.json'),
    format: 'json',
    serversKey: 'mcpServers',
    global: false,
    // Claude Code starts project servers in the project folder.
    stdioEntry: (launch) => ({ command: launch.command, args: launch.args }),
    httpEntry: (url) => ({ type: 'http', url, headers: bearer(clientVariable(TOKEN_VARIABLE)) }),
    trustStep:
      'Claude Code keeps servers from a project .mcp.json "pending approval" until you approve them: start `claude` in the project and accept ctxgate (or approve it under /mcp). `claude mcp list` then shows it connected.',
    instructionsFile: 'CLAUDE.md',
  },
  'claude-desktop': {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    configFile: claudeDesktopConfig,
    format: 'json',
    serversKey: 'mcpServers',
    global: true,
    stdioEntry: (launch, w) => ({ command: launch.command, args: [...launch.args, '--project-root', w.projectRoot] }),
    httpEntry: () => undefined,
    trustStep: 'Restart Claude Desktop; ctxgate appears under its tools (the project root is fixed in the entry: run init again for another project).',
  },
  cursor: {
    id: 'cursor',
    label: 'Cursor',
    configFile: (w) => path.join(w.projectRoot, '.cursor', 'mcp.json'),
    format: 'json',
    serversKey: 'mcpServers',
    global: false,
    stdioEntry: (launch) => ({ command: launch.command, args: [...launch.args, '--project-root', clientVariable('workspaceFolder')] }),
    httpEntry: (url) => ({ url, headers: bearer(clientVariable(`env:${TOKEN_VARIABLE}`)) }),
    trustStep: 'Cursor lists ctxgate under Settings → MCP; switch it on there if it is off.',
    instructionsFile: 'AGENTS.md',
  },
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    configFile: (w) => path.join(w.projectRoot, '.vscode', 'mcp.json'),
    format: 'json',
    serversKey: 'servers',
    global: false,
    stdioEntry: (launch) => ({ type: 'stdio', command: launch.command, args: [...launch.args, '--project-root', clientVariable('workspaceFolder')] }),
    httpEntry: (url) => ({ type: 'http', url, headers: bearer(clientVariable('input:ctxgate-token')) }),
    httpExtras: {
      key: 'inputs',
      item: { type: 'promptString', id: 'ctxgate-token', description: 'ctxgate HTTP token (ctxgate serve prints it)', password: true },
    },
    trustStep: 'VS Code asks you to trust ctxgate the first time it starts it: open .vscode/mcp.json and choose Start, or run "MCP: List Servers".',
    instructionsFile: 'AGENTS.md',
  },
  codex: {
    id: 'codex',
    label: 'Codex',
    configFile: (w) => path.join(w.projectRoot, '.codex', 'config.toml'),
    format: 'toml',
    serversKey: 'mcp_servers',
    global: false,
    stdioEntry: (launch, w) => ({ command: launch.command, args: launch.args, cwd: w.projectRoot }),
    httpEntry: (url) => ({ url, bearer_token_env_var: TOKEN_VARIABLE }),
    trustStep: 'Codex reads .codex/config.toml only in a trusted project: trust the folder when Codex asks (then /mcp lists ctxgate).',
    instructionsFile: 'AGENTS.md',
  },
  gemini: {
    id: 'gemini',
    label: 'Gemini CLI',
    configFile: (w) => path.join(w.projectRoot, '.gemini', 'settings.json'),
    format: 'json',
    serversKey: 'mcpServers',
    global: false,
    stdioEntry: (launch) => ({ command: launch.command, args: launch.args }),
    httpEntry: (url) => ({ httpUrl: url, headers: bearer(clientVariable(TOKEN_VARIABLE)) }),
    trustStep: 'Gemini CLI applies a project .gemini/settings.json in a trusted folder: trust it when asked; /mcp lists ctxgate.',
    instructionsFile: 'GEMINI.md',
  },
};
