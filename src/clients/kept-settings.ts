// What `ctxgate init` keeps from an entry already in a client's config (issue 23.8). A cloned
// repository's `.mcp.json` may carry an entry named ctxgate whose `env` loads code into the server
// the client starts (`NODE_OPTIONS=--require ./payload.js`): init rewrites how the client starts
// ctxgate, so keeping that entry's env would put the user's trust behind it. Every launch setting
// kept is named in the report; the ones that load code or pick programs are refused unless the
// user says --keep-env.
import { looksSensitiveName } from '../security/sensitive-names.ts';

/** Keys of a server entry that change how its process starts, beside the command and args init writes. */
const LAUNCH_KEYS = new Set(['env', 'envFile', 'env_file', 'env_vars']);

/** Variables that load code into a process, or pick the programs and packages it starts. */
const CODE_LOADING_NAME =
  /^(NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|BUN_OPTIONS|DENO_\w+|LD_\w+|DYLD_\w+|PATH|NPM_CONFIG_\w+|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|GCONV_PATH|ELECTRON_RUN_AS_NODE)$/i;

/** An option that loads a module or a library before the program runs, anywhere in a value. */
const LOADER_OPTION = /(^|\s)(-r|--require|--import|--loader|--experimental-loader|--experimental-preload|--preload|-javaagent|--inspect[\w-]*)(?=$|[\s=:])/;

export interface KeptSetting {
  /** `env NODE_ENV=…`, `envFile .env.local`. */
  shown: string;
  /** Why it could run code; undefined when it looks harmless. */
  suspicious?: string;
}

function judgeVariable(name: string, value: unknown): KeptSetting {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // Shown so the user sees what was kept; a credential's value stays out of the terminal.
  const shown = `env ${name}=${looksSensitiveName(name) ? '…' : text}`;
  if (CODE_LOADING_NAME.test(name)) return { shown, suspicious: `${name} loads code or picks the programs the server starts` };
  if (LOADER_OPTION.test(text)) return { shown, suspicious: `the value of ${name} holds a loader or preload option` };
  return { shown };
}

/** The launch settings of `entry` (the entry as it will be written), judged. */
export function keptLaunchSettings(kept: Record<string, unknown>): KeptSetting[] {
  const out: KeptSetting[] = [];
  for (const [key, value] of Object.entries(kept)) {
    if (!LAUNCH_KEYS.has(key)) continue;
    if (key === 'env' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, v] of Object.entries(value)) out.push(judgeVariable(name, v));
    } else if (key === 'env_vars' && Array.isArray(value)) {
      // Codex forwards these variables from its own environment.
      for (const name of value.map(String)) {
        out.push({ shown: `env_vars ${name}`, ...(CODE_LOADING_NAME.test(name) ? { suspicious: `${name} loads code or picks the programs the server starts` } : {}) });
      }
    } else {
      out.push({ shown: `${key} ${JSON.stringify(value)}`, suspicious: `${key} names variables ctxgate init cannot see` });
    }
  }
  return out;
}
