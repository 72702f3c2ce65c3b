// How tools/list shows a tool: kept apart from the registry (which loads zod and the app's types) so
// that a host type-checking against the embedded API (integrations/pi) reads only these few lines.

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
  idempotentHint?: boolean;
}

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  outputSchema?: Record<string, unknown> & { type: 'object' };
  /** Only the hints that differ from MCP's defaults (absent: none do). */
  annotations?: Partial<ToolAnnotations>;
}
