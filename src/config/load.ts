// Reads, parses and validates the config file that src/config/find.ts found; no file: the defaults.
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { defaultConfig } from './defaults.ts';
import { findConfigFile } from './find.ts';
import { type Config, configSchema } from './schema.ts';

export { findConfigFile } from './find.ts';

export interface LoadedConfig {
  config: Config;
  /** Absolute path of the file read, or undefined when the defaults apply. */
  file: string | undefined;
}

export function parseConfigText(text: string, file: string): Config {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new AppError(ErrorCode.Config, `config file ${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${messageOf(error)}`, {
      hint: 'fix the syntax, or remove the file to run with the defaults',
    });
  }
  // An empty YAML file means "all defaults".
  const result = configSchema.safeParse(raw ?? {});
  if (!result.success) {
    throw new AppError(ErrorCode.Config, `config file ${file} is invalid:\n${formatConfigIssues(result.error.issues)}`, {
      hint: 'every field is optional; see the README for the schema and defaults',
    });
  }
  return result.data;
}

export function formatConfigIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : '(top level)';
      if (issue.code === 'unrecognized_keys') {
        const prefix = issue.path.length ? `${where}.` : '';
        return `  ${issue.keys.map((k) => prefix + k).join(', ')}: unknown field`;
      }
      return `  ${where}: ${issue.message}`;
    })
    .join('\n');
}

/** The config in `file`, validated. */
export function readConfigFile(runtime: Runtime, file: string): Config {
  let text: string;
  try {
    text = runtime.fs.readTextFileSync(file);
  } catch (error) {
    throw new AppError(ErrorCode.Config, `cannot read config file ${file}: ${messageOf(error)}`);
  }
  return parseConfigText(text, file);
}

export function loadConfig(runtime: Runtime, explicit: string | undefined, projectRoot: string): LoadedConfig {
  const file = findConfigFile(runtime, explicit, projectRoot);
  return file ? { config: readConfigFile(runtime, file), file } : { config: defaultConfig(), file: undefined };
}
