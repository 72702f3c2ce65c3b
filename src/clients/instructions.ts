// The agent-instructions block (gate spec, "Agent Instructions (CLAUDE.md)"): route code discovery
// through the gate tools and big outputs through ctx_run, probe the server at session start, and say
// what to do when it is down. Written between markers, so running init again replaces it in place.
import { AppError, ErrorCode } from '../errors.ts';

export const BEGIN_MARKER = '<!-- ctxgate:begin — written by `ctxgate init --instructions`; edits between these markers are replaced -->';
export const END_MARKER = '<!-- ctxgate:end -->';

export const INSTRUCTIONS_BLOCK = `${BEGIN_MARKER}
## Code and command output go through ctxgate

**First, probe:** at the start of a session call ctxgate's \`locate\` once with \`{"query": "main", "max_results": 1}\`
(in Claude Code the tools are named \`mcp__ctxgate__locate\` and so on).
- It answers → use the tools below for all code discovery and every command with long output.
- It fails or the tools are missing → stop and ask the user to enable the ctxgate MCP server (\`ctxgate init\`,
  then approve it in the client), or to run \`ctxgate init --hooks\`, whose session reminder says what to use
  meanwhile. Do not fall back to grep/cat silently.

Finding and reading code (instead of grep, rg, find, cat):
- where something is defined or used → \`locate\` (ranked file:line ranges, no bodies)
- the code itself → \`read\` with a symbol, \`Class.method\`, a file, or \`file:start-end\`
- text or a regex across the project → \`search\`; a \`refused\` answer names a narrower scope or exclude:
  take it rather than \`force\`
- callers, callees, imports, layout → \`explore\`

Commands and big outputs:
- tests, builds, logs, long listings → \`ctx_run\` (add \`intent\` to get the matching sections back), then
  \`ctx_kb search\` over what it kept
- web pages and docs → \`ctx_kb fetch\`; files and folders → \`ctx_fs\`; history and diffs → \`ctx_git\`;
  long-running processes → \`ctx_bg\`

Editing files stays with the client's own edit tools.
${END_MARKER}`;

/**
 * `text` with the block replaced between its markers, or appended when there are none. A begin marker
 * without its end is refused: appending would leave two begins, and the next run would replace
 * everything from the first to the new end — the user's own text in between included.
 */
export function upsertBlock(text: string, file: string, block: string = INSTRUCTIONS_BLOCK): string {
  const begin = text.indexOf(BEGIN_MARKER.slice(0, '<!-- ctxgate:begin'.length));
  const end = begin < 0 ? -1 : text.indexOf(END_MARKER, begin);
  if (begin >= 0 && end < 0) {
    const line = text.slice(0, begin).split('\n').length;
    throw new AppError(ErrorCode.Config, `${file} has ctxgate's begin marker (line ${line}) but no ${END_MARKER} after it`, {
      hint: `put ${END_MARKER} back where ctxgate's block ends (or delete the block from its begin marker on), then run ctxgate init again`,
    });
  }
  if (begin >= 0) return text.slice(0, begin) + block + text.slice(end + END_MARKER.length);
  if (text.trim() === '') return `${block}\n`;
  return `${text.replace(/\n*$/, '\n\n')}${block}\n`;
}
