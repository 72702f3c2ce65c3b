// Turns code in one of the 12 languages into the steps that run it: source written to a private temp
// folder, an optional compile step, then the run. execute_file's FILE_CONTENT is given to the code
// the way each language can take it safely: a literal where the language has an escape-free form
// (JSON is valid JavaScript, Python and Go; Rust gets a raw string), otherwise read from a file at
// start, so no file content can ever become code through string interpolation.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { INSTALL_HINT, LANGUAGES, type Language } from './languages.ts';

export interface Step {
  command: string;
  args: string[];
  /** A compile step: its failure is reported as such and the run is skipped. */
  compile?: boolean;
}

export interface Program {
  steps: Step[];
  /** Temp folder holding the sources; removed after the run. */
  dir: string;
}

export interface ProgramOptions {
  /** execute_file: the file's content, handed to the code as FILE_CONTENT. */
  fileContent?: string;
}

function need(runtime: Runtime, language: Language, ...commands: string[]): string {
  for (const c of commands) {
    const found = runtime.which(c);
    if (found) return found;
  }
  throw new AppError(ErrorCode.Unavailable, `${language} is not available: none of ${commands.join(', ')} is on PATH`, {
    hint: `install ${INSTALL_HINT[language]} (ctxgate doctor lists the runtimes it finds)`,
  });
}

/**
 * rustc as rustup's proxy runs nothing until a toolchain is chosen (RUSTUP_TOOLCHAIN, or a default in
 * rustup's settings): without one, rust is not available, whatever PATH holds (issue 24).
 */
function rustupReady(runtime: Runtime, rustc: string): string {
  let real: string;
  try {
    real = runtime.fs.realpathSync(rustc);
  } catch {
    return rustc;
  }
  if (!/^rustup(?:\.exe)?$/.test(path.basename(real))) return rustc;
  if (runtime.env.get('RUSTUP_TOOLCHAIN')) return rustc;
  const home = runtime.env.get('RUSTUP_HOME') ?? path.join(runtime.env.get('HOME') ?? '', '.rustup');
  const settings = runtime.fs.statSync(path.join(home, 'settings.toml'))?.isFile ? runtime.fs.readTextFileSync(path.join(home, 'settings.toml')) : '';
  if (/^\s*default_toolchain\s*=\s*"[^"]+"/m.test(settings)) return rustc;
  throw new AppError(ErrorCode.Unavailable, 'rust is not available: rustc is rustup\'s proxy and rustup has no default toolchain', {
    hint: 'run `rustup default stable` (or set RUSTUP_TOOLCHAIN), then ctxgate doctor lists rust',
  });
}

const json = (text: string) => JSON.stringify(text);

function rustRaw(text: string): string {
  let hashes = '#';
  while (text.includes(`"${hashes}`)) hashes += '#';
  return `r${hashes}"${text}"${hashes}`;
}

/** Go needs FILE_CONTENT at package scope: after the imports, so at the end of the file. */
function goSource(code: string, content: string | undefined): string {
  const decl = content === undefined ? '' : `\nvar FILE_CONTENT = ${json(content)}\n`;
  if (/^\s*package\s+\w+/m.test(code)) return code + decl;
  if (/\bfunc\s+main\s*\(/.test(code)) return `package main\n\n${code}${decl}`;
  // A bare snippet: give it a main. Imports it needs must be written as a whole file.
  return `package main\n\nfunc main() {\n${code}\n}\n${decl}`;
}

/** PHP: one opening tag, whether or not the code brings its own. */
function phpSource(code: string, contentFile: string | undefined): string {
  const read = contentFile === undefined ? '' : `$FILE_CONTENT = file_get_contents(${json(contentFile)});\n`;
  const tag = /^\s*<\?php\b/.exec(code);
  if (tag) return `<?php\n${read}${code.slice(tag.index + tag[0].length)}`;
  return `<?php\n${read}${code}`;
}

function csharpSource(code: string, contentFile: string | undefined): string {
  const read = contentFile === undefined ? '' : `string FILE_CONTENT = System.IO.File.ReadAllText(${json(contentFile)});\n`;
  if (/\bstatic\s+(void|int|async\s+\S+)\s+Main\s*\(/.test(code)) {
    if (!read) return code;
    // Whole program: FILE_CONTENT as a static field of the class holding Main.
    return code.replace(/(class\s+\w+[^{]*\{)/, `$1\nstatic ${read.trim().replace(/^string/, 'string')}\n`);
  }
  return `using System;\nusing System.IO;\nusing System.Linq;\nusing System.Collections.Generic;\nclass Program {\n  static void Main(string[] args) {\n${read}${code}\n  }\n}\n`;
}

/**
 * Node runs TypeScript itself from 22.7 on: type stripping, and with transform-types also enums,
 * namespaces and parameter properties. The published package then needs no loader of its own.
 */
export function nodeRunsTypeScript(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 7);
}

const NODE_TYPESCRIPT_FLAGS = ['--experimental-transform-types', '--disable-warning=ExperimentalWarning'];

/** Builds the steps that run `code` in `language`, writing its sources into a new temp folder. */
export function buildProgram(runtime: Runtime, language: Language, code: string, options: ProgramOptions = {}): Program {
  const fs = runtime.fs;
  // Check the runtime first: a missing one must not leave a temp folder behind.
  const tools = resolveTools(runtime, language);
  const dir = fs.makeTempDirSync('ctxgate-run-');
  const file = (name: string, content: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content, 0o600);
    return p;
  };
  const content = options.fileContent;
  const contentFile = content === undefined ? undefined : file('FILE_CONTENT.txt', content);
  const deno = runtime.name === 'deno';
  switch (language) {
    case 'javascript': {
      const src = file('main.mjs', content === undefined ? code : `const FILE_CONTENT = ${json(content)};\n${code}`);
      return { dir, steps: [{ command: tools[0]!, args: deno ? ['run', '-A', src] : [src] }] };
    }
    case 'typescript': {
      const src = file('main.ts', content === undefined ? code : `const FILE_CONTENT: string = ${json(content)};\n${code}`);
      if (deno) return { dir, steps: [{ command: tools[0]!, args: ['run', '-A', src] }] };
      const loader = tools[1] ? ['--import', tools[1]] : NODE_TYPESCRIPT_FLAGS;
      return { dir, steps: [{ command: tools[0]!, args: [...loader, src] }] };
    }
    case 'python': {
      const src = file('main.py', content === undefined ? code : `FILE_CONTENT = ${json(content)}\n${code}`);
      return { dir, steps: [{ command: tools[0]!, args: [src] }] };
    }
    case 'shell': {
      const prefix = contentFile === undefined ? '' : `FILE_CONTENT="$(cat '${contentFile}')"\nexport FILE_CONTENT\n`;
      const src = file('main.sh', prefix + code);
      return { dir, steps: [{ command: tools[0]!, args: [src] }] };
    }
    case 'go': {
      const src = file('main.go', goSource(code, content));
      return { dir, steps: [{ command: tools[0]!, args: ['run', src] }] };
    }
    case 'rust': {
      const src = file('main.rs', content === undefined ? code : `#[allow(dead_code)]\nconst FILE_CONTENT: &str = ${rustRaw(content)};\n${code}`);
      const bin = path.join(dir, 'main');
      return { dir, steps: [{ command: tools[0]!, args: ['--edition', '2021', '-o', bin, src], compile: true }, { command: bin, args: [] }] };
    }
    case 'php':
      return { dir, steps: [{ command: tools[0]!, args: [file('main.php', phpSource(code, contentFile))] }] };
    case 'perl': {
      const read = contentFile === undefined ? '' : `my $FILE_CONTENT = do { local $/; open(my $fh, '<:encoding(UTF-8)', ${json(contentFile)}) or die $!; <$fh> };\n`;
      return { dir, steps: [{ command: tools[0]!, args: [file('main.pl', read + code)] }] };
    }
    case 'ruby': {
      const read = contentFile === undefined ? '' : `FILE_CONTENT = File.read(${json(contentFile)}, encoding: 'UTF-8')\n`;
      return { dir, steps: [{ command: tools[0]!, args: [file('main.rb', read + code)] }] };
    }
    case 'r': {
      const read = contentFile === undefined ? '' : `FILE_CONTENT <- paste(readLines(${json(contentFile)}, warn = FALSE, encoding = "UTF-8"), collapse = "\\n")\n`;
      return { dir, steps: [{ command: tools[0]!, args: ['--vanilla', file('main.R', read + code)] }] };
    }
    case 'elixir': {
      const read = contentFile === undefined ? '' : `file_content = File.read!(${json(contentFile)})\n_ = file_content\n`;
      return { dir, steps: [{ command: tools[0]!, args: [file('main.exs', read + code)] }] };
    }
    case 'csharp': {
      const src = file('main.cs', csharpSource(code, contentFile));
      const exe = path.join(dir, 'main.exe');
      return { dir, steps: [{ command: tools[0]!, args: ['-nologo', `-out:${exe}`, src], compile: true }, { command: tools[1]!, args: [exe] }] };
    }
  }
}

/** The executables a language needs, or a clear error naming what to install. */
function resolveTools(runtime: Runtime, language: Language): string[] {
  switch (language) {
    case 'javascript':
      return [runtime.execPath];
    case 'typescript': {
      if (runtime.name === 'deno' || nodeRunsTypeScript(runtime.version)) return [runtime.execPath];
      // An older Node in a development checkout: the tsx loader among the dev dependencies.
      const loader = runtime.resolveModule('tsx');
      if (!loader) {
        throw new AppError(ErrorCode.Unavailable, `typescript is not available: Node ${runtime.version} cannot run TypeScript itself (22.7 and later can)`, {
          hint: 'run ctxgate on Node 22 or 24, or on Deno',
        });
      }
      return [runtime.execPath, loader];
    }
    case 'python':
      return [need(runtime, language, 'python3', 'python')];
    case 'shell':
      return [need(runtime, language, 'bash', 'sh')];
    case 'go':
      return [need(runtime, language, 'go')];
    case 'rust':
      return [rustupReady(runtime, need(runtime, language, 'rustc'))];
    case 'php':
      return [need(runtime, language, 'php')];
    case 'perl':
      return [need(runtime, language, 'perl')];
    case 'ruby':
      return [need(runtime, language, 'ruby')];
    case 'r':
      return [need(runtime, language, 'Rscript')];
    case 'elixir':
      return [need(runtime, language, 'elixir')];
    case 'csharp':
      return [need(runtime, language, 'mcs'), need(runtime, language, 'mono')];
  }
}

/** For each language, the executable that runs it here, or null when it is missing. */
export function availableRuntimes(runtime: Runtime): Record<Language, string | null> {
  const out = {} as Record<Language, string | null>;
  for (const lang of LANGUAGES) {
    try {
      out[lang] = resolveTools(runtime, lang)[0] ?? null;
    } catch {
      out[lang] = null;
    }
  }
  return out;
}
