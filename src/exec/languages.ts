// The 12 languages ctx_run speaks, and what to install when one is missing.
export const LANGUAGES = ['javascript', 'typescript', 'python', 'shell', 'go', 'rust', 'php', 'perl', 'ruby', 'r', 'elixir', 'csharp'] as const;
export type Language = (typeof LANGUAGES)[number];

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
  csharp: 'mono-mcs and mono-runtime',
};
