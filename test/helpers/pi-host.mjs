// Loads an extension the way the Pi coding agent does (its own discoverAndLoadExtensions, jiti and
// all), calls its tools, and prints what happened as JSON. Run by test/integrations/pi.test.ts:
//   node pi-host.mjs <pi-coding-agent dir> <extension file> <project> <pi agent dir>
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [piDir, extension, project, agentDir] = process.argv.slice(2);
const pi = await import(pathToFileURL(path.join(piDir, 'dist', 'index.js')).href);
const ai = await import(pathToFileURL(path.join(piDir, '..', 'pi-ai', 'dist', 'index.js')).href);

const loaded = await pi.discoverAndLoadExtensions([extension], project, agentDir);
const tools = loaded.extensions.flatMap((e) => [...e.tools.values()].map((t) => t.definition));
const byName = new Map(tools.map((t) => [t.name, t]));
const ctx = { cwd: project };

async function run(name, args) {
  try {
    const result = await byName.get(name).execute('call-1', args, undefined, undefined, ctx);
    return { text: result.content.map((c) => c.text).join('\n') };
  } catch (error) {
    return { error: String(error.message) };
  }
}

function validate(name, args) {
  try {
    return { ok: ai.validateToolArguments(byName.get(name), { name, arguments: args }) };
  } catch (error) {
    return { refused: String(error.message).split('\n')[1] };
  }
}

console.log(
  JSON.stringify({
    errors: loaded.errors,
    tools: tools.map((t) => ({ name: t.name, label: t.label, snippet: t.promptSnippet, guidelines: t.promptGuidelines ?? [] })),
    locate: await run('locate', { query: 'placeOrder' }),
    read: await run('ctxgate_read', { target: 'placeOrder' }),
    kbDoctor: await run('ctx_kb', { action: 'doctor' }),
    badCall: await run('ctx_kb', { action: 'search' }),
    valid: validate('ctx_fs', { action: 'ls', depth: 2 }),
    invalid: validate('ctx_fs', { action: 'rm' }),
  }),
);
process.exit(0);
