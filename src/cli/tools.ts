// `ctxgate tools [NAME]`: the parameters of each tool, from the same JSON Schemas tools/list sends, so
// an argument error's "see the parameters" can be followed from a shell.
import { AppError, ErrorCode } from '../errors.ts';
import type { ListedTool } from '../tools/registry.ts';

interface Property {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
}

function typeOf(p: Property): string {
  if (p.enum) return p.enum.map((v) => JSON.stringify(v)).join(' | ');
  return Array.isArray(p.type) ? p.type.join(' | ') : (p.type ?? 'any');
}

/** One tool: its description, then each parameter with type, whether required, and what it is for. */
function describe(tool: ListedTool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
  const required = new Set((tool.inputSchema.required ?? []) as string[]);
  const lines = [`${tool.name} — ${tool.title ?? ''}`.replace(/ — $/, ''), '', tool.description.trim(), '', 'parameters:'];
  for (const [name, p] of Object.entries(properties)) lines.push(`  ${name}${required.has(name) ? '' : '?'}  ${typeOf(p)}${p.description ? `  — ${p.description}` : ''}`);
  lines.push('', 'input schema (JSON Schema, as tools/list sends it):', JSON.stringify(tool.inputSchema, null, 2));
  return lines.join('\n');
}

export function formatTools(tools: readonly ListedTool[], name: string | undefined, json: boolean): string {
  if (name !== undefined) {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new AppError(ErrorCode.Usage, `no tool named '${name}'`, { hint: `the tools are: ${tools.map((t) => t.name).join(', ')}` });
    return json ? JSON.stringify(tool, null, 2) : describe(tool);
  }
  if (json) return JSON.stringify(tools, null, 2);
  const width = Math.max(...tools.map((t) => t.name.length));
  const rows = tools.map((t) => {
    const required = new Set((t.inputSchema.required ?? []) as string[]);
    const params = Object.keys((t.inputSchema.properties ?? {}) as object).map((p) => (required.has(p) ? p : `${p}?`));
    return `  ${t.name.padEnd(width)}  ${params.join(', ')}`;
  });
  return ['tools and their parameters (? = optional); ctxgate tools NAME shows one in full:', ...rows].join('\n');
}
