// What flows through the gate pipeline: hits from the adapters, ranked items from ranking.
import type { Config } from '../config/schema.ts';
import type { Logger } from '../logging/logger.ts';
import type { TextIndexReader } from '../textindex/types.ts';
import type { GrepDeps } from '../workspace/grep/index.ts';
import type { Kind } from './kinds.ts';

/**
 * What the gate pipeline needs: file access and ripgrep (to scan), the logger, the settings, and the
 * code text index when there is one (it indexes the primary workdir, `workdirs.dirs[0]`).
 */
export interface RetrievalDeps extends GrepDeps {
  logger: Logger;
  config: Config;
  textIndex?: TextIndexReader;
}

export interface Hit {
  /** Relative to the root searched, `/`-separated. */
  file: string;
  line: number;
  text: string;
  /** Where the match starts in `text` (-1 when unknown). */
  matchIndex: number;
  kind: Kind;
  source: 'fileio' | 'graph';
  /** For a definition from the code index: its range and how strong an answer it is. */
  def?: {
    start: number;
    end: number;
    strength: number;
    overloads: number;
    name: string;
    container?: string;
    /** A declaration that is no definition of its own: what it is and where (`parameter of escape`). */
    local?: string;
    /** C and C++: where the body's prototypes and `extern` declarations are. */
    declarations?: { file: string; line: number }[];
  };
  /** Already scored by the backend (definition blocks for a question in words). */
  blockScore?: number;
}

export interface ResultItem extends Hit {
  /** 0–1: comparable across queries, so minRelevance means something. */
  score: number;
}
