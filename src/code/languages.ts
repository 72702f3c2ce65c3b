// Which grammar parses a file: by extension, from grammar packages installed with ctxgate (nothing is
// downloaded at run time). @vscode/tree-sitter-wasm has every language we parse but C, which comes
// from @repomix/tree-sitter-wasms.
export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'csharp' | 'c' | 'cpp' | 'ruby' | 'php';

const BY_EXTENSION: Record<string, LanguageId> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  rb: 'ruby',
  php: 'php',
};

/** The grammar's file name in dist/grammars/ (the published package; scripts/build.mjs copies them). */
export function grammarFile(id: LanguageId): string {
  return GRAMMAR_MODULE[id].slice(GRAMMAR_MODULE[id].lastIndexOf('/') + 1);
}

/** Module specifier of each grammar's .wasm file. */
export const GRAMMAR_MODULE: Record<LanguageId, string> = {
  typescript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm',
  tsx: '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm',
  javascript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm',
  python: '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
  go: '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm',
  rust: '@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm',
  java: '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm',
  csharp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm',
  cpp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm',
  ruby: '@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm',
  php: '@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm',
  c: '@repomix/tree-sitter-wasms/out/tree-sitter-c.wasm',
};

/** The language of a path, or undefined when no grammar covers it (the line-heuristic tier). */
export function languageOf(file: string): LanguageId | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(file);
  return m ? BY_EXTENSION[m[1]!.toLowerCase()] : undefined;
}

/** Files that document code rather than define it: never a source of definitions. */
export function isDocumentation(file: string): boolean {
  if (languageOf(file)) return false;
  return /\.(md|markdown|mdx|rst|txt|adoc|org|tex|cfg|conf|ini)$/i.test(file) || /(^|\/)(changelog|changes|news|history)[^/]*$/i.test(file) || /(^|\/)Documentation\//.test(file);
}
