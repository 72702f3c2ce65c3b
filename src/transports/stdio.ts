// MCP over stdio: what MCP clients launch. stdout carries protocol bytes only.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createClientSession, type AppContext } from '../app/context.ts';
import { createMcpServer } from '../server/create-server.ts';
import type { ToolRegistry } from '../tools/registry.ts';

export async function runStdio(app: AppContext, registry: ToolRegistry): Promise<void> {
  const { stdin, stdout } = app.runtime.stdio();
  const transport = new StdioServerTransport(stdin, stdout);
  const server = createMcpServer(app, registry, createClientSession(`stdio-${app.processSessionId}`));
  app.lifecycle.onShutdown(() => server.close());
  await server.connect(transport);
  app.logger.log('server_start', { transport: 'stdio', projectRoot: app.projectRoot, workdirs: app.workdirs.dirs, tools: registry.names });
}
