// `ctxgate init` through the command line, as a user runs it: each client's config written or merged,
// nothing else in those files touched, the same result on a second run. That the written command
// starts (init's own check, and a real MCP client on the entry) is e2e/init-launch's.
//
// Most runs here go through the command line's own code in this process (src/cli/command.ts's runCli:
// the parsing, init, the exit code it returns and the text it prints), not a new Node or Deno each
// (~0.5 s of CPU apiece); what only a process adds (main.ts loading the runtime and exiting with the
// code, the real stdout and stderr) is held by the runs marked `process` below.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { clientVariable } from '../../src/clients/catalog.ts';
import { denoExecutable, fixture, onDeno, removeDir, repoRoot } from '../helpers/env.ts';
import { runCli } from '../helpers/server.ts';
import { cliHere } from '../helpers/cli-here.ts';

describe('ctxgate init', () => {
  let home: string;
  let env: Record<string, string>;

  before(() => {
    home = fixture();
    env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), CTXGATE_DATA_DIR: path.join(home, 'data') };
  });
  after(() => removeDir(home));

  // The launch check (a server started over stdio, ~0.6 s of CPU) has its own tests (e2e/init-launch,
  // the clone's run there is the one here with the check on); here it runs with the other runtime below.
  const initIn = (project: string, ...args: string[]) => cliHere(['init', '--project-root', project, ...args], env);
  const init = (project: string, ...args: string[]) => initIn(project, '--no-check', ...args);
  const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

  it('points Claude Code at this installation and keeps the servers already in .mcp.json', () => {
    const project = fixture({ '.mcp.json': '{\n  "mcpServers": {\n    "other": { "command": "other-server", "args": ["--x"] }\n  }\n}\n' });
    // process: the command a user types, its exit code and stdout.
    const r = runCli(['init', '--project-root', project, '--no-check'], { env });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\.mcp\.json\s+updated/);
    assert.match(r.stdout, /pending approval/, 'the trust step is printed');
    const servers = json(path.join(project, '.mcp.json')).mcpServers;
    assert.deepEqual(servers.other, { command: 'other-server', args: ['--x'] });
    if (onDeno) {
      assert.deepEqual(servers.ctxgate.args, ['run', '-A', path.join(repoRoot, 'src', 'main.ts')]);
    } else {
      assert.equal(servers.ctxgate.command, process.execPath);
      assert.deepEqual(servers.ctxgate.args, [path.join(repoRoot, 'dist', 'ctxgate.mjs')]);
    }
    removeDir(project);
  });

  it('keeps a copy of every file it changes in the data dir, and names the folder', async () => {
    const original = '{\n  // my servers\n  "mcpServers": { "other": { "command": "x", "env": { "API_TOKEN": "t0ps3cret" } } }\n}\n';
    const project = fixture({ '.mcp.json': original });
    const r = await init(project, '--instructions');
    assert.equal(r.status, 0, r.stderr);
    const folder = /previous versions of the updated files: (\S+)/.exec(r.stdout)?.[1];
    assert.ok(folder?.startsWith(env.CTXGATE_DATA_DIR!), r.stdout);
    assert.equal(readFileSync(path.join(folder!, '.mcp.json'), 'utf8'), original);
    assert.equal(statSync(path.join(folder!, '.mcp.json')).mode & 0o777, 0o600, 'a config may hold secrets');
    assert.ok(!existsSync(path.join(folder!, 'CLAUDE.md')), 'a file it created has no earlier version');
    assert.doesNotMatch((await init(project, '--instructions')).stdout, /previous versions/, 'nothing changed, nothing copied');
    removeDir(project);
  });

  it('changes nothing on a second run', async () => {
    const project = fixture();
    // process: the bundle's own init writes every client's file (TOML, instructions, hooks), not only src/.
    const written = runCli(['init', '--project-root', project, '--no-check', '--client', 'all', '--instructions', '--hooks'], { env });
    assert.equal(written.status, 0, written.stderr);
    const files = ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', '.codex/config.toml', '.gemini/settings.json', 'CLAUDE.md', 'AGENTS.md', 'GEMINI.md', '.claude/settings.local.json'];
    const first = files.map((f) => readFileSync(path.join(project, f), 'utf8'));
    const again = await init(project, '--client', 'all', '--instructions', '--hooks');
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /updated|created/);
    assert.deepEqual(
      files.map((f) => readFileSync(path.join(project, f), 'utf8')),
      first,
    );
    removeDir(project);
  });

  it('shows a diff on --dry-run and writes nothing', async () => {
    const project = fixture({ '.cursor/mcp.json': '{ "mcpServers": {} }\n' });
    const r = await init(project, '--client', 'cursor', '--client', 'claude-code', '--dry-run');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /--- a\/\.cursor\/mcp\.json\n\+\+\+ b\/\.cursor\/mcp\.json/);
    assert.match(r.stdout, /\+\+\+ b\/\.mcp\.json/);
    assert.match(r.stdout, /\+\s+"ctxgate": \{/);
    assert.match(r.stdout, /dry run: nothing written/);
    assert.equal(readFileSync(path.join(project, '.cursor/mcp.json'), 'utf8'), '{ "mcpServers": {} }\n');
    assert.throws(() => statSync(path.join(project, '.mcp.json')));
    removeDir(project);
  });

  it("writes each client's own format, keeping comments and other entries", async () => {
    const project = fixture({
      '.vscode/mcp.json': '{\n  // my servers\n  "servers": { "db": { "type": "stdio", "command": "db-mcp" } }\n}\n',
      '.codex/config.toml': '# my codex settings\nmodel = "o4"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
      '.gemini/settings.json': '{ "theme": "dark" }\n',
    });
    assert.equal((await init(project, '--client', 'vscode,codex,gemini,cursor')).status, 0);
    const vscode = readFileSync(path.join(project, '.vscode/mcp.json'), 'utf8');
    assert.match(vscode, /\/\/ my servers/);
    assert.match(vscode, /"db": \{/);
    assert.match(vscode, /"type": "stdio"/);
    assert.match(vscode, /\$\{workspaceFolder\}/);
    const codexText = readFileSync(path.join(project, '.codex/config.toml'), 'utf8');
    assert.match(codexText, /^# my codex settings\nmodel = "o4"/);
    const codex = parseToml(codexText) as { mcp_servers: Record<string, { command: string; cwd?: string }> };
    assert.equal(codex.mcp_servers.docs!.command, 'docs-mcp');
    assert.equal(codex.mcp_servers.ctxgate!.cwd, project);
    assert.equal(json(path.join(project, '.gemini/settings.json')).theme, 'dark');
    assert.ok(json(path.join(project, '.gemini/settings.json')).mcpServers.ctxgate.command);
    assert.deepEqual(json(path.join(project, '.cursor/mcp.json')).mcpServers.ctxgate.args.slice(-2), ['--project-root', clientVariable('workspaceFolder')]);
    removeDir(project);
  });

  it('replaces its own entry in place when run again with another runtime', async () => {
    const project = fixture({ '.codex/config.toml': '[mcp_servers.docs]\ncommand = "docs-mcp"\n' });
    assert.equal((await init(project, '--client', 'codex', '--runtime', 'node')).status, 0);
    // Under Node, init takes the deno on PATH: the one the tests run with. The check is on: the deno
    // command it wrote starts.
    const deno = denoExecutable();
    const r = await cliHere(['init', '--project-root', project, '--client', 'codex', '--runtime', 'deno'], { ...env, PATH: `${path.dirname(deno)}${path.delimiter}${process.env.PATH}` });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^check: the command starts and lists 9 tools/m, 'the deno command it wrote starts');
    const text = readFileSync(path.join(project, '.codex/config.toml'), 'utf8');
    assert.equal(text.match(/\[mcp_servers\.ctxgate\]/g)?.length, 1);
    assert.match(text, /"run", "-A"|"run","-A"|\[ "run", "-A"/);
    assert.match(text, /\[mcp_servers\.docs\]/);
    removeDir(project);
  });

  it('keeps what the user added to its entry (env, timeouts) when it rewrites how the client starts it', async () => {
    const project = fixture({
      '.mcp.json': '{ "mcpServers": { "ctxgate": { "command": "old-node", "args": ["/old/ctxgate.mjs"], "env": { "CTXGATE_DATA_DIR": "/data/ctx" } } } }\n',
      '.codex/config.toml': '[mcp_servers.ctxgate]\ncommand = "old"\nargs = []\nstartup_timeout_sec = 30\n\n[mcp_servers.ctxgate.env]\nCTXGATE_DATA_DIR = "/data/ctx"\n',
    });
    const first = await init(project, '--client', 'claude-code,codex');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /kept from the ctxgate entry already in \.mcp\.json \(the client starts ctxgate with these\):\n {2}env CTXGATE_DATA_DIR=\/data\/ctx\n/);
    const claude = json(path.join(project, '.mcp.json')).mcpServers.ctxgate;
    assert.notEqual(claude.command, 'old-node');
    assert.deepEqual(claude.env, { CTXGATE_DATA_DIR: '/data/ctx' });
    const codex = (parseToml(readFileSync(path.join(project, '.codex/config.toml'), 'utf8')) as { mcp_servers: { ctxgate: Record<string, unknown> } }).mcp_servers.ctxgate;
    assert.notEqual(codex.command, 'old');
    assert.equal(codex.startup_timeout_sec, 30);
    assert.deepEqual({ ...(codex.env as object) }, { CTXGATE_DATA_DIR: '/data/ctx' });
    const again = await init(project, '--client', 'claude-code,codex');
    assert.doesNotMatch(again.stdout, /updated|created/, 'a second run changes nothing');
    removeDir(project);
  });

  it('keeps the comments above the next table when it replaces its Codex entry', async () => {
    const text = '# top\n[mcp_servers.ctxgate]\ncommand = "old"\nargs = []\n\n# The other server: keep this note\n[mcp_servers.other]\ncommand = "x"\n';
    const project = fixture({ '.codex/config.toml': text });
    assert.equal((await init(project, '--client', 'codex')).status, 0);
    const after = readFileSync(path.join(project, '.codex/config.toml'), 'utf8');
    assert.match(after, /\n# The other server: keep this note\n\[mcp_servers\.other\]\ncommand = "x"\n$/);
    assert.doesNotMatch(after, /"old"/);
    assert.equal(parseToml(after).mcp_servers !== undefined, true);
    removeDir(project);
  });

  it('names the project root for Claude Desktop, whose config lives in the home folder', async () => {
    const project = fixture();
    assert.equal((await init(project, '--client', 'claude-desktop')).status, 0);
    const entry = json(path.join(home, '.config', 'Claude', 'claude_desktop_config.json')).mcpServers.ctxgate;
    assert.deepEqual(entry.args.slice(-2), ['--project-root', project]);
    removeDir(project);
  });

  it('points the clients at a running server with --http, reading the token from the environment', async () => {
    const project = fixture();
    const url = 'http://127.0.0.1:8787/mcp';
    const r = await init(project, '--client', 'all', '--http', url);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(json(path.join(project, '.mcp.json')).mcpServers.ctxgate, { type: 'http', url, headers: { Authorization: `Bearer ${clientVariable('CTXGATE_TOKEN')}` } });
    assert.deepEqual(json(path.join(project, '.cursor/mcp.json')).mcpServers.ctxgate.headers, { Authorization: `Bearer ${clientVariable('env:CTXGATE_TOKEN')}` });
    const vscode = json(path.join(project, '.vscode/mcp.json'));
    assert.equal(vscode.servers.ctxgate.headers.Authorization, `Bearer ${clientVariable('input:ctxgate-token')}`);
    assert.equal(vscode.inputs[0].password, true);
    assert.equal(json(path.join(project, '.gemini/settings.json')).mcpServers.ctxgate.httpUrl, url);
    assert.match(readFileSync(path.join(project, '.codex/config.toml'), 'utf8'), /bearer_token_env_var = "CTXGATE_TOKEN"/);
    assert.match(r.stdout, /Claude Desktop: skipped/);
    removeDir(project);
  });

  it('writes the instructions block once and replaces only what lies between its markers', async () => {
    const project = fixture({ 'CLAUDE.md': '# House rules\n\nUse tabs.\n' });
    assert.equal((await init(project, '--instructions')).status, 0);
    const first = readFileSync(path.join(project, 'CLAUDE.md'), 'utf8');
    assert.match(first, /^# House rules\n\nUse tabs\.\n\n<!-- ctxgate:begin/);
    assert.match(first, /mcp__ctxgate__locate/);
    assert.match(first, /ctx_run/);
    writeFileSync(path.join(project, 'CLAUDE.md'), first.replace('## Code and command output', '## Edited by hand') + '\nMore rules.\n');
    assert.equal((await init(project, '--instructions')).status, 0);
    const second = readFileSync(path.join(project, 'CLAUDE.md'), 'utf8');
    assert.equal(second.match(/ctxgate:begin/g)?.length, 1);
    assert.doesNotMatch(second, /Edited by hand/);
    assert.match(second, /\nMore rules\.\n$/);
    removeDir(project);
  });

  it('refuses a block whose end marker is gone instead of appending a second one, and keeps the text after it', async () => {
    const project = fixture();
    assert.equal((await init(project, '--instructions')).status, 0);
    const file = path.join(project, 'CLAUDE.md');
    const broken = `${readFileSync(file, 'utf8').replace('<!-- ctxgate:end -->', '')}\n# Our rules\n\nNever deploy on Fridays.\n`;
    writeFileSync(file, broken);
    for (let run = 0; run < 2; run++) {
      const r = await init(project, '--instructions');
      assert.equal(r.status, 2, r.stdout);
      assert.match(r.stderr, /CLAUDE\.md has ctxgate's begin marker \(line 1\) but no <!-- ctxgate:end --> after it/);
    }
    assert.equal(readFileSync(file, 'utf8'), broken);
    removeDir(project);
  });

  it("adds Claude Code hooks beside the user's own", async () => {
    const project = fixture({ '.claude/settings.local.json': '{ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "my-audit" }, { "type": "command", "command": "other-tool hook pre-tool-use" } ] } ] } }\n' });
    assert.equal((await init(project, '--hooks')).status, 0);
    assert.equal((await init(project, '--hooks')).status, 0);
    const hooks = json(path.join(project, '.claude/settings.local.json')).hooks;
    assert.equal(hooks.PreToolUse.length, 2);
    assert.deepEqual(hooks.PreToolUse[0].hooks.map((h: { command: string }) => h.command), ['my-audit', 'other-tool hook pre-tool-use'], "another program's hook of the same name is kept");
    assert.match(hooks.PreToolUse[1].hooks[0].command, /(ctxgate\.mjs|main\.ts) hook pre-tool-use$/);
    assert.equal(hooks.PreToolUse[1].matcher, 'Bash|Grep|Read');
    assert.equal(hooks.SessionStart[0].matcher, 'startup|resume|clear|compact');
    assert.match(hooks.SessionStart[0].hooks[0].command, /hook session-start$/);
    removeDir(project);
  });

  it('refuses a config it cannot parse, naming the file and line, and leaves it alone', async () => {
    const project = fixture({ '.mcp.json': '{\n  "mcpServers": {\n    "x": \n}\n' });
    const r = await init(project);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /\.mcp\.json is not valid JSON \(line 4/);
    assert.equal(readFileSync(path.join(project, '.mcp.json'), 'utf8'), '{\n  "mcpServers": {\n    "x": \n}\n');
    assert.match((await init(project, '--client', 'nope')).stderr, /--client must be one of/);
    // process: a usage mistake exits 2 and says so on stderr.
    const misplaced = runCli(['--client', 'cursor']);
    assert.equal(misplaced.status, 2);
    assert.match(misplaced.stderr, /--client belongs to 'ctxgate init'/);
    removeDir(project);
  });

  it('writes through a symbolic link inside the project to the file it names, and the link stays a link', async () => {
    const project = fixture({ 'AGENTS.md': '# Agents\n', 'config/mcp.json': '{ "mcpServers": { "other": { "command": "x" } } }\n' });
    symlinkSync('config/mcp.json', path.join(project, '.mcp.json'));
    symlinkSync('AGENTS.md', path.join(project, 'CLAUDE.md'));
    const r = await init(project, '--client', 'claude-code,cursor', '--instructions');
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(path.join(project, '.mcp.json')).isSymbolicLink(), '.mcp.json is still a link');
    assert.ok(lstatSync(path.join(project, 'CLAUDE.md')).isSymbolicLink(), 'CLAUDE.md is still a link');
    const servers = json(path.join(project, 'config/mcp.json')).mcpServers;
    assert.deepEqual(Object.keys(servers), ['other', 'ctxgate']);
    const agents = readFileSync(path.join(project, 'AGENTS.md'), 'utf8');
    assert.match(agents, /^# Agents\n\n<!-- ctxgate:begin/);
    assert.equal(agents.match(/ctxgate:begin/g)?.length, 1);

    const dangling = fixture();
    symlinkSync(path.join(dangling, 'nowhere.json'), path.join(dangling, '.mcp.json'));
    const refused = await init(dangling);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /\.mcp\.json is a symbolic link to .*nowhere\.json, which does not exist/);
    assert.ok(!existsSync(path.join(dangling, 'nowhere.json')));
    removeDir(project);
    removeDir(dangling);
  });

  // Issue 23.8: a cloned repository's links must not turn init into a writer of the user's own files.
  it('never writes through a link that leaves the project, and writes nothing else then', async () => {
    const outside = fixture({ '.bashrc': 'export PS1=x\n', 'mcp.json': '{ "mcpServers": {} }\n', 'claude/': '' });
    const cases: [string, (project: string) => void, string[]][] = [
      ['CLAUDE.md', (p) => symlinkSync(path.join(outside, '.bashrc'), path.join(p, 'CLAUDE.md')), ['--instructions']],
      ['.mcp.json', (p) => symlinkSync(path.join(outside, 'mcp.json'), path.join(p, '.mcp.json')), []],
      ['.mcp.json', (p) => symlinkSync(path.join(outside, 'not-yet.json'), path.join(p, '.mcp.json')), []],
      ['.claude', (p) => symlinkSync(path.join(outside, 'claude'), path.join(p, '.claude')), ['--hooks']],
    ];
    for (const [name, plant, args] of cases) {
      const project = fixture({ 'AGENTS.md': '# Agents\n' });
      plant(project);
      const r = await init(project, ...args);
      assert.equal(r.status, 2, `${name}: ${r.stdout}`);
      assert.match(r.stderr, new RegExp(`${name.replace('.', '\\.')}\\S* (is a symbolic link to|lies in a folder that is a symbolic link).* outside ${project}; ctxgate init does not write through it`), name);
      assert.ok(!existsSync(path.join(project, '.mcp.json')) || lstatSync(path.join(project, '.mcp.json')).isSymbolicLink(), 'no other file was written');
      removeDir(project);
    }
    assert.equal(readFileSync(path.join(outside, '.bashrc'), 'utf8'), 'export PS1=x\n');
    assert.equal(readFileSync(path.join(outside, 'mcp.json'), 'utf8'), '{ "mcpServers": {} }\n');
    assert.ok(!existsSync(path.join(outside, 'not-yet.json')));
    assert.ok(!existsSync(path.join(outside, 'claude', 'settings.local.json')));
    removeDir(outside);
  });

  // Issue 23.8: an env kept from a repository's entry would run code when the client starts ctxgate.
  it('names the launch settings it keeps and refuses code-loading ones unless --keep-env is given', async () => {
    const hostile = '{ "mcpServers": { "ctxgate": { "command": "node", "args": ["x.js"], "env": { "NODE_OPTIONS": "--require ./payload.js", "APP_MODE": "dev" } } } }\n';
    const cases: [string, Record<string, string>, string[], RegExp][] = [
      ['claude-code', { '.mcp.json': hostile }, [], /env NODE_OPTIONS=--require \.\/payload\.js \(NODE_OPTIONS loads code/],
      ['claude-code', { '.mcp.json': '{ "mcpServers": { "ctxgate": { "command": "n", "env": { "EXTRA": "--import=./x.mjs" } } } }\n' }, [], /env EXTRA=--import=\.\/x\.mjs \(the value of EXTRA holds a loader or preload option/],
      ['codex', { '.codex/config.toml': '[mcp_servers.ctxgate]\ncommand = "n"\n\n[mcp_servers.ctxgate.env]\nLD_PRELOAD = "./evil.so"\n' }, [], /env LD_PRELOAD=\.\/evil\.so/],
      ['vscode', { '.vscode/mcp.json': `{ "servers": { "ctxgate": { "command": "n", "envFile": "${clientVariable('workspaceFolder')}/.env.payload" } } }\n` }, [], /envFile .*\.env\.payload/],
    ];
    for (const [client, files, args, named] of cases) {
      const project = fixture(files);
      const r = await init(project, '--client', client, ...args);
      assert.equal(r.status, 2, r.stdout);
      assert.match(r.stderr, /launch settings that would run code when the client starts ctxgate, so nothing was written/);
      assert.match(r.stderr, named);
      assert.match(r.stderr, /hint: .*--keep-env/);
      for (const [file, text] of Object.entries(files)) assert.equal(readFileSync(path.join(project, file), 'utf8'), text, 'left as it was');
      removeDir(project);
    }
    const project = fixture({ '.mcp.json': hostile });
    const kept = await init(project, '--keep-env');
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stdout, /kept from the ctxgate entry already in \.mcp\.json \(the client starts ctxgate with these\):\n {2}env NODE_OPTIONS=--require \.\/payload\.js {2}— kept with --keep-env: NODE_OPTIONS loads code[^\n]*\n {2}env APP_MODE=dev\n/);
    assert.equal(json(path.join(project, '.mcp.json')).mcpServers.ctxgate.env.NODE_OPTIONS, '--require ./payload.js');
    removeDir(project);
  });

  it('leaves a read-only config, or a file where a folder belongs, alone and writes none of the other files', async () => {
    const project = fixture({ '.mcp.json': '{ "mcpServers": {} }\n' });
    chmodSync(path.join(project, '.mcp.json'), 0o444);
    const r = await init(project, '--instructions', '--hooks');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /\.mcp\.json is read-only \(mode 444\)/);
    assert.equal(readFileSync(path.join(project, '.mcp.json'), 'utf8'), '{ "mcpServers": {} }\n');
    assert.ok(!existsSync(path.join(project, 'CLAUDE.md')), 'nothing else was written either');
    assert.ok(!existsSync(path.join(project, '.claude')));
    removeDir(project);

    // A file where a client's folder belongs: refused before .mcp.json is written.
    const blocked = fixture({ '.cursor': 'a file, not a folder\n' });
    const r2 = await init(blocked, '--client', 'claude-code,cursor');
    assert.equal(r2.status, 2, r2.stderr);
    assert.match(r2.stderr, /\.cursor is not a folder/);
    assert.ok(!existsSync(path.join(blocked, '.mcp.json')));
    removeDir(blocked);
  });

  it('refuses a config whose servers or hooks hold the wrong kind of value, naming the key, and leaves it alone', async () => {
    for (const [file, text, args, key] of [
      ['.mcp.json', '{ "mcpServers": [] }\n', [], 'mcpServers'],
      ['.mcp.json', '{ "mcpServers": "oops" }\n', [], 'mcpServers'],
      ['.claude/settings.local.json', '{ "hooks": { "PreToolUse": { "matcher": "Bash" } } }\n', ['--hooks'], 'hooks.PreToolUse'],
      ['.claude/settings.local.json', '{ "hooks": [] }\n', ['--hooks'], 'hooks'],
    ] as const) {
      const project = fixture({ [file]: text });
      const r = await init(project, ...args);
      assert.equal(r.status, 2, `${text}: ${r.stdout}`);
      assert.match(r.stderr, new RegExp(`${file.replace(/\./g, '\\.')}: "${key}" holds`), text);
      assert.equal(readFileSync(path.join(project, file), 'utf8'), text);
      removeDir(project);
    }
  });

  it('keeps a byte order mark and Windows line ends', async () => {
    const text = '\uFEFF{\r\n  "mcpServers": {\r\n    "other": { "command": "x" }\r\n  }\r\n}\r\n';
    const project = fixture({ '.mcp.json': text });
    const r = await init(project);
    assert.equal(r.status, 0, r.stderr);
    const after = readFileSync(path.join(project, '.mcp.json'), 'utf8');
    assert.ok(after.startsWith('\uFEFF{\r\n  "mcpServers": {\r\n    "other"'), JSON.stringify(after.slice(0, 40)));
    assert.doesNotMatch(after.replace(/\r\n/g, ''), /\n/, 'every line ends in CRLF');
    assert.deepEqual(Object.keys(JSON.parse(after.slice(1)).mcpServers), ['other', 'ctxgate']);
    assert.equal((await init(project)).stdout.includes('unchanged'), true, 'a second run changes nothing');
    removeDir(project);
  });
});
