// ctxgate's tools inside the Pi coding agent (ctxmode spec, "Pi integration"): the same nine tools,
// called in-process through ctxgate's built bundle (dist/embed.mjs), no MCP server in between.
// Load it with `pi -e /path/to/ctxgate/integrations/pi/index.ts`, list it under "extensions" in Pi's
// settings.json, or `pi install npm:ctxgate` (the package's "pi" field names this file).
import type { ExtensionAPI, ExtensionContext } from '@mariozechner/pi-coding-agent';
import type { EmbedApi, EmbeddedCtxgate } from '../../src/transports/embed-api.ts';

// The built bundle (npm run build; the npm package ships it). Its types come from the source above.
const BUNDLE = '../../dist/embed.mjs';

/** Pi's own tools: a ctxgate tool of the same name is registered as ctxgate_<name> instead of replacing it. */
const PI_BUILTINS = new Set(['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls']);

const GUIDELINES = [
  'Use locate to find where code is defined or used, then ctxgate_read for the exact block, before grep or find.',
  'Use search (ranked, token-budgeted) instead of grep across the project; when it answers refused, narrow scope as it suggests.',
  'Use ctx_run for tests, builds and other commands with long output (add intent), then ctx_kb search over what it kept.',
];

export default async function ctxgate(pi: ExtensionAPI): Promise<void> {
  const { listTools, openCtxgate } = (await import(BUNDLE)) as EmbedApi;
  let opened: Promise<EmbeddedCtxgate> | undefined;
  const gate = (ctx: ExtensionContext) => {
    // One that failed to open (a config with a mistake) is opened again on the next call, once it is fixed.
    opened ??= openCtxgate({ projectRoot: ctx.cwd }).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };

  for (const tool of listTools()) {
    const name = PI_BUILTINS.has(tool.name) ? `ctxgate_${tool.name}` : tool.name;
    pi.registerTool({
      name,
      label: tool.title,
      description: tool.description,
      promptSnippet: tool.description.split('. ')[0]!,
      ...(tool.name === 'locate' ? { promptGuidelines: GUIDELINES } : {}),
      // Pi validates plain JSON Schema as well as TypeBox schemas.
      parameters: tool.inputSchema as never,
      async execute(_toolCallId, params, signal, onUpdate, ctx) {
        const result = await (await gate(ctx)).call(tool.name, params, {
          ...(signal ? { signal } : {}),
          progress: (progress, total, message) =>
            onUpdate?.({ content: [{ type: 'text', text: message ?? `${progress}${total === undefined ? '' : `/${total}`}` }], details: {} }),
        });
        const text = result.content.map((c) => c.text).join('\n');
        if (result.isError) throw new Error(text);
        return { content: [{ type: 'text', text }], details: result.structuredContent ?? {} };
      },
    });
  }

  pi.on('session_shutdown', async () => {
    const current = opened;
    opened = undefined;
    if (current) await (await current.catch(() => undefined))?.close();
  });
}
