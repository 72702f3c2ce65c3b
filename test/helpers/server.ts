// Starts the real server the way users do: the Node bundle (dist/ctxgate.mjs) under Node, src/main.ts
// under Deno, and connects the SDK's own Client to it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { onDeno, repoRoot } from './env.ts';

export function serverCommand(): { command: string; args: string[] } {
  if (onDeno) {
    const deno = (globalThis as unknown as { Deno: { execPath(): string } }).Deno.execPath();
    return { command: deno, args: ['run', '-A', path.join(repoRoot, 'src', 'main.ts')] };
  }
  return { command: process.execPath, args: [path.join(repoRoot, 'dist', 'ctxgate.mjs')] };
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ctxgate ARGS` to completion. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const { command, args: base } = serverCommand();
  const r = spawnSync(command, [...base, ...args], { cwd: options.cwd ?? repoRoot, env: { ...process.env, NO_COLOR: '1', ...options.env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface StdioConnection {
  client: Client;
  transport: StdioClientTransport;
  /** What the server has written to stderr so far. */
  stderr: () => string;
}

/**
 * `client` (a plain one by default) connected over stdio to the server `server` starts — its command,
 * arguments, folder and whole environment as given — with its stderr kept. A connection that fails
 * stops the server it started.
 */
export async function connectStdioTo(
  server: { command: string; args: string[]; cwd?: string; env: Record<string, string> },
  client = new Client({ name: 'ctxgate-test', version: '1' }),
): Promise<StdioConnection> {
  const transport = new StdioClientTransport({ ...server, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  }
  return { client, transport, stderr: () => stderr };
}

/** The real server (serverCommand) with `args`, this process's environment with `env` over it. */
export function connectStdio(args: string[], env: Record<string, string> = {}): Promise<StdioConnection> {
  const { command, args: base } = serverCommand();
  return connectStdioTo({ command, args: [...base, ...args], env: { ...(process.env as Record<string, string>), ...env } });
}

export interface HttpServer {
  url: string;
  port: number;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Starts `ctxgate serve --port 0 …` and waits for the line that names the endpoint; an `env` value of undefined removes that variable. */
export function startHttp(args: string[], env: Record<string, string | undefined>): Promise<HttpServer> {
  const { command, args: base } = serverCommand();
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) merged[k] = v;
  const child = spawn(command, [...base, 'serve', '--port', '0', ...args], { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /MCP endpoint (http:\/\/\S+\/mcp)/.exec(stderr);
      if (m?.[1]) {
        clearTimeout(timer);
        const url = m[1];
        resolve({
          url,
          port: Number(new URL(url).port),
          child,
          stderr: () => stderr,
          async stop() {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${stderr}`));
    });
  });
}
