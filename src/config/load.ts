// Finds, parses and validates the config file. Order: --config → CTXGATE_CONFIG / CTXMODE_CONFIG →
// ./ctxgate.config.{json,yaml,yml} in the project root → ~/.config/ctxgate/config.{json,yaml,yml}.
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { type Config, configSchema } from './schema.ts';

export interface LoadedConfig {
  config: Config;
  /** Absolute path of the file read, or undefined when the defaults apply. */
  file: string | undefined;
}

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

export function loadConfig(runtime: Runtime, explicit: string | undefined, projectRoot: string): LoadedConfig {
  const file = findConfigFile(runtime, explicit, projectRoot);
  if (!file) return { config: configSchema.parse({}), file: undefined };
  let text: string;
  try {
    text = runtime.fs.readTextFileSync(file);
  } catch (error) {
    throw new AppError(ErrorCode.Config, `cannot read config file ${file}: ${messageOf(error)}`);
  }
  return { config: parseConfigText(text, file), file };
}
