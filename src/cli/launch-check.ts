// After `ctxgate init` writes a config: start the command it wrote, the way a client would (stdio,
// in the project folder), and ask for the tools. A config that cannot start fails here, where the user
// is looking, not later as a client's "failed to connect".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Launch } from '../clients/launch.ts';
import { messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';

/** Long enough for a cold start on a loaded machine (or npx fetching the package). */
const CHECK_TIMEOUT_MS = 60_000;

export async function checkLaunch(runtime: Runtime, launch: Launch, projectRoot: string): Promise<{ ok: boolean; text: string }> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...launch.args, '--project-root', projectRoot],
    cwd: projectRoot,
    env: runtime.env.toObject(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: { toString(): string }) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'ctxgate-init-check', version: '1' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
    });
    await Promise.race([client.connect(transport), timeout]);
    const { tools } = await Promise.race([client.listTools(), timeout]);
    const server = client.getServerVersion();
    return { ok: true, text: `the command starts and lists ${tools.length} tools (${server?.name ?? 'server'} ${server?.version ?? ''})`.trimEnd() };
  } catch (error) {
    const said = stderr.trim().split('\n').slice(-3).join(' | ');
    return { ok: false, text: `the command did not answer tools/list: ${messageOf(error)}${said ? ` (it said: ${said})` : ''}. Clients will fail to start it the same way.` };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}
