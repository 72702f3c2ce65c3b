// Which config file applies. Order: --config → CTXGATE_CONFIG / CTXMODE_CONFIG →
// ./ctxgate.config.{json,yaml,yml} in the project root → ~/.config/ctxgate/config.{json,yaml,yml}.
// Only stat calls: reading and parsing the file (src/config/load.ts) happens when there is one.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';

const EXTENSIONS = ['json', 'yaml', 'yml'] as const;

export function findConfigFile(runtime: Runtime, explicit: string | undefined, projectRoot: string): string | undefined {
  const named = explicit ?? runtime.env.get('CTXGATE_CONFIG') ?? runtime.env.get('CTXMODE_CONFIG');
  if (named) {
    const file = path.resolve(runtime.cwd(), named);
    if (!runtime.fs.statSync(file)?.isFile) {
      throw new AppError(ErrorCode.Config, `config file ${file} does not exist`, {
        hint: 'pass an existing JSON or YAML file to --config, or unset CTXGATE_CONFIG/CTXMODE_CONFIG',
      });
    }
    return file;
  }
  const candidates = [
    ...EXTENSIONS.map((ext) => path.join(projectRoot, `ctxgate.config.${ext}`)),
    ...EXTENSIONS.map((ext) => path.join(runtime.homeDir(), '.config', 'ctxgate', `config.${ext}`)),
  ];
  return candidates.find((file) => runtime.fs.statSync(file)?.isFile);
}
