// Tree-sitter, loaded on first use: the WASM runtime once, then each grammar the first time a file of
// its language is parsed. Grammars are read as bytes through the runtime's file API and handed to
// `Language.load`, which works the same on both runtimes.
import type { Language, Parser } from 'web-tree-sitter';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { GRAMMAR_MODULE, grammarFile, type LanguageId } from './languages.ts';

type TreeSitter = typeof import('web-tree-sitter');

let loading: Promise<TreeSitter> | undefined;

/** The web-tree-sitter module, initialised once per process. */
export function loadTreeSitter(): Promise<TreeSitter> {
  loading ??= import('web-tree-sitter')
    .then(async (ts) => {
      await ts.Parser.init();
      return ts;
    })
    .catch((error) => {
      loading = undefined;
      throw new AppError(ErrorCode.Unavailable, `tree-sitter does not start: ${messageOf(error)}`, { hint: 'reinstall ctxgate with its dependencies (npm ci)' });
    });
  return loading;
}

/** A file URL or path from `resolveModule`, as a path. */
function toPath(resolved: string): string {
  return resolved.startsWith('file:') ? decodeURIComponent(new URL(resolved).pathname) : resolved;
}

/**
 * Where a grammar's .wasm is: beside the bundle (dist/grammars/, what the package ships; the bundle's
 * chunks sit in dist/chunks/), else in its npm package (a clone, Deno).
 */
function grammarPath(runtime: Pick<Runtime, 'resolveModule' | 'fs'>, id: LanguageId): string | undefined {
  const here = import.meta.url;
  if (here.startsWith('file:')) {
    for (const rel of [`../grammars/${grammarFile(id)}`, `./grammars/${grammarFile(id)}`]) {
      const candidate = toPath(new URL(rel, here).href);
      if (runtime.fs.statSync(candidate)?.isFile) return candidate;
    }
  }
  const resolved = runtime.resolveModule(GRAMMAR_MODULE[id]);
  return resolved ? toPath(resolved) : undefined;
}

export interface Grammars {
  /** A parser set to the language (one parser per language, reused). */
  parser(language: LanguageId): Promise<{ parser: Parser; language: Language; ts: TreeSitter }>;
}

export function createGrammars(runtime: Pick<Runtime, 'resolveModule' | 'fs'>): Grammars {
  const cache = new Map<LanguageId, Promise<{ parser: Parser; language: Language; ts: TreeSitter }>>();
  return {
    parser(id) {
      let entry = cache.get(id);
      if (!entry) {
        entry = (async () => {
          const ts = await loadTreeSitter();
          const file = grammarPath(runtime, id);
          if (!file) throw new AppError(ErrorCode.Unavailable, `the ${id} grammar is not installed (${GRAMMAR_MODULE[id]})`, { hint: 'reinstall ctxgate with its dependencies (npm ci)' });
          let bytes: Uint8Array;
          try {
            bytes = await runtime.fs.readFile(file);
          } catch (error) {
            throw new AppError(ErrorCode.Unavailable, `cannot read the ${id} grammar: ${messageOf(error)}`, { hint: 'reinstall ctxgate with its dependencies (npm ci)' });
          }
          let language: Language;
          try {
            language = await ts.Language.load(bytes);
          } catch (error) {
            throw new AppError(ErrorCode.Unavailable, `the ${id} grammar does not load: ${messageOf(error)}`, { hint: 'reinstall ctxgate with its dependencies (npm ci)' });
          }
          const parser = new ts.Parser();
          parser.setLanguage(language);
          return { parser, language, ts };
        })();
        entry.catch(() => cache.delete(id));
        cache.set(id, entry);
      }
      return entry;
    },
  };
}
