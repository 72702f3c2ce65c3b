// The 12 languages ctx_run speaks and the commands that run them, in order of preference.
import type { Runtime } from '../runtime/types.ts';

export const LANGUAGES = ['javascript', 'typescript', 'python', 'shell', 'go', 'rust', 'php', 'perl', 'ruby', 'r', 'elixir', 'csharp'] as const;
export type Language = (typeof LANGUAGES)[number];

const COMMANDS: Record<Language, readonly string[]> = {
  javascript: ['node', 'deno', 'bun'],
  typescript: ['deno', 'node', 'bun'],
  python: ['python3', 'python'],
  shell: ['bash', 'sh'],
  go: ['go'],
  rust: ['rustc'],
  php: ['php'],
  perl: ['perl'],
  ruby: ['ruby'],
  r: ['Rscript'],
  elixir: ['elixir'],
  csharp: ['dotnet', 'mcs'],
};

/** What to install when a language's runtime is missing (Debian package names). */
export const INSTALL_HINT: Record<Language, string> = {
  javascript: 'nodejs',
  typescript: 'nodejs or deno',
  python: 'python3',
  shell: 'bash',
  go: 'golang-go',
  rust: 'rustc (or rustup)',
  php: 'php-cli',
  perl: 'perl',
  ruby: 'ruby',
  r: 'r-base-core',
  elixir: 'elixir',
  csharp: 'a .NET SDK, or mono-mcs and mono-runtime',
};

/** For each language, the command found on PATH that runs it, or null. */
export function availableRuntimes(runtime: Runtime): Record<Language, string | null> {
  const out = {} as Record<Language, string | null>;
  for (const lang of LANGUAGES) out[lang] = COMMANDS[lang].map((c) => runtime.which(c)).find(Boolean) ?? null;
  return out;
}
