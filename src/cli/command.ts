// Runs one parsed command and returns the process exit code (0 ok, 1 failure, 2 usage/config).
// What only one command uses (init, doctor, stats, call, users, the HTTP server) is imported when that
// command runs: an MCP client starts the stdio server for every session and waits for its tool list.
import { AppError, ErrorCode, isAppError, messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import type { AppContext } from '../app/context.ts';
import { createListedRegistry } from '../tools/listed-registry.ts';
import { selectToolNames } from '../tools/names.ts';
import { VERSION } from '../version.ts';
import { parseCommand, USAGE } from './args.ts';
import { unsupportedNodeLine } from './node-support.ts';
import { serveStdio } from './serve-stdio.ts';

/** Resolves when the server should stop: a signal, or stdin closing in stdio mode. */
function untilStopped(runtime: Runtime, watchStdin: boolean): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) runtime.onSignal(signal, () => resolve(signal));
    if (watchStdin) runtime.onStdinEnd(() => resolve('stdin closed'));
  });
}

function printOut(runtime: Runtime, text: string): Promise<void> {
  return runtime.writeStdout(`${text}\n`);
}

async function runServer(app: AppContext, start: () => Promise<void>, watchStdin: boolean): Promise<number> {
  const stopped = untilStopped(app.runtime, watchStdin);
  await start();
  // An index on disk is checked against the disk now, not at the first search.
  const { warmStart } = await import('../app/warm-start.ts');
  warmStart(app);
  const reason = await stopped;
  app.logger.log('server_stop', { reason });
  await app.lifecycle.shutdown(reason);
  return 0;
}

export async function runCli(runtime: Runtime): Promise<number> {
  let app: AppContext | undefined;
  const unsupported = unsupportedNodeLine(runtime);
  if (unsupported) runtime.writeStderr(unsupported);
  try {
    const command = parseCommand(runtime.args, (name) => runtime.env.get(name));
    if (command.kind === 'help' || command.kind === 'version') {
      await printOut(runtime, command.kind === 'help' ? USAGE.trimEnd() : VERSION);
      return 0;
    }
    // init writes client configs; it needs no server, knowledge base or log.
    if (command.kind === 'init') {
      const { runInit } = await import('./init.ts');
      const { text, code } = await runInit(runtime, command);
      await printOut(runtime, text);
      return code;
    }

    // tools prints the schemas: the tool definitions are all it reads.
    if (command.kind === 'tools') {
      const { formatTools } = await import('./tools.ts');
      const listed = createListedRegistry(selectToolNames(command.common.tools, '--tools')).list();
      await printOut(runtime, formatTools(listed, command.name, command.json));
      return 0;
    }

    if (command.kind === 'stdio') {
      // stdout belongs to the protocol: anything a dependency logs goes to stderr instead.
      console.log = console.error;
      console.info = console.error;
      return await serveStdio(runtime, command.common, untilStopped(runtime, true));
    }

    const { createAppContext } = await import('../app/bootstrap.ts');
    app = createAppContext(runtime, command.common);
    const registry = createListedRegistry(selectToolNames(app.config.tools, command.common.tools ? '--tools' : `${app.configFile ?? 'config'} tools`));
    const ctx = app;
    switch (command.kind) {
      case 'serve': {
        const { serveHttp } = await import('../transports/serve.ts');
        return await runServer(ctx, () => serveHttp(ctx, registry, command), false);
      }
      case 'call': {
        const { runCall } = await import('./call.ts');
        const code = await runCall(ctx, registry, command.tool, command.args, command.json);
        await ctx.lifecycle.shutdown('call done');
        return code;
      }
      case 'doctor': {
        const { diagnose, formatDoctor } = await import('./doctor.ts');
        const report = await diagnose(ctx, registry);
        await printOut(runtime, command.json ? JSON.stringify(report, null, 2) : formatDoctor(report));
        await ctx.lifecycle.shutdown('doctor done');
        return 0;
      }
      case 'users': {
        const [{ openTeam }, { runUsers }] = await Promise.all([import('../app/team.ts'), import('./users.ts')]);
        const team = await openTeam(ctx, 'users');
        if (team) {
          try {
            await printOut(runtime, await runUsers(team.users, command.action, command.json));
          } finally {
            await team.close();
            await ctx.lifecycle.shutdown('users done');
          }
          return 0;
        }
        throw new AppError(ErrorCode.Unavailable, 'ctxgate users needs the Postgres backend: people and their tokens are a team endpoint\'s, kept in its database', {
          hint: 'set storage.backend: "postgres" and storage.url (or CTXGATE_DATABASE_URL), see README "Team endpoint"; with SQLite, serve has one bearer token (ctxgate serve --rotate-token replaces it)',
        });
      }
      case 'stats': {
        const [{ collectStatus }, { formatStatsReport }] = await Promise.all([import('../app/status.ts'), import('./stats.ts')]);
        const snapshot = await collectStatus(ctx, { sessions: [], startedAt: Date.now() });
        await printOut(runtime, command.json ? JSON.stringify(snapshot, null, 2) : formatStatsReport(snapshot));
        await ctx.lifecycle.shutdown('stats done');
        return 0;
      }
    }
  } catch (error) {
    const code = isAppError(error) && (error.code === ErrorCode.Usage || error.code === ErrorCode.Config) ? 2 : 1;
    const hint = isAppError(error) && error.hint ? `\nhint: ${error.hint}` : '';
    runtime.writeStderr(`ctxgate: ${messageOf(error)}${hint}\n`);
    app?.logger.log('fatal', { error: messageOf(error) });
    await app?.lifecycle.shutdown('fatal');
    return code;
  }
}

