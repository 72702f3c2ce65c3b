// run_task: structured build and test commands with a fixed argv and no shell. Targets, args and env
// are checked against what each kind allows (task-options.ts, task-env.ts), so that nothing can smuggle in another
// command, build file or folder.
import { AppError, ErrorCode } from '../errors.ts';
import { allowedTaskEnv, taskEnvRefusal } from './task-env.ts';
import type { TaskKind } from './task-kinds.ts';
import { type ArgRules, type OptionRule, TASK_ARG_RULES } from './task-options.ts';

export { TASK_KINDS, type TaskKind } from './task-kinds.ts';

/** Refuses env a kind does not allow (task-env.ts): the build tools read many variables as options or programs. */
export function validateTaskEnv(kind: TaskKind, env: Record<string, string>): void {
  if (kind === 'custom') return;
  for (const [key, value] of Object.entries(env)) {
    const why = taskEnvRefusal(kind, key, value);
    if (why === undefined) continue;
    throw new AppError(ErrorCode.InvalidArgument, `env key '${key}' may not be set for ${kind}: ${why}`, {
      hint: `${kind} takes only ${allowedTaskEnv(kind).join(' ')} in env (build tools read other variables as options or as the program to run); put options in args (checked), or use kind "custom" or action "execute" to run a command with any env`,
    });
  }
}

function allowedList(rules: ArgRules): string {
  const options = Object.entries(rules.options).map(([name, rule]) => (rule.value ? (rule.optional ? `${name}[=…]` : `${name}=…`) : name));
  const parts = [`options: ${options.join(' ')}`];
  if (rules.positional) parts.push(`positional: ${rules.positional.what}`);
  if (rules.afterDashDash) parts.push(`after --: ${allowedList(rules.afterDashDash)}`);
  return parts.join('; ');
}

function refuse(kind: TaskKind, what: string, value: string, why: string | undefined, rules: ArgRules): never {
  throw new AppError(ErrorCode.InvalidArgument, `${what} '${value}' is not allowed for ${kind}${why ? `: ${why}` : ''}`, {
    hint: `allowed for ${kind} — ${allowedList(rules)}; cwd chooses the folder`,
  });
}

/** The rule an option argument names, and the value written into it (`-x=v`, `-jN`), if any. */
function lookup(rules: ArgRules, arg: string): { name: string; rule: OptionRule; value: string | undefined } | undefined {
  const eq = arg.indexOf('=');
  const name = eq < 0 ? arg : arg.slice(0, eq);
  const rule = rules.options[name];
  if (rule) return { name, rule, value: eq < 0 ? undefined : arg.slice(eq + 1) };
  if (rules.attached && /^-[A-Za-z]./.test(arg)) {
    const short = rules.options[arg.slice(0, 2)];
    if (short?.value) return { name: arg.slice(0, 2), rule: short, value: arg.slice(2) };
  }
  return undefined;
}

/** Checks args against the kind's allowlist; throws naming the first argument refused and what is allowed. */
export function checkTaskArgs(kind: Exclude<TaskKind, 'custom'>, args: readonly string[]): void {
  let rules: ArgRules = TASK_ARG_RULES[kind];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const what = `args[${i}]`;
    if (arg === '--' && rules.afterDashDash) {
      rules = rules.afterDashDash;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (!rules.positional) refuse(kind, what, arg, 'it takes no positional arguments', rules);
      const why = rules.positional.check(arg);
      if (why) refuse(kind, what, arg, `it ${why}`, rules);
      continue;
    }
    const found = lookup(rules, arg);
    if (!found) refuse(kind, what, arg, undefined, rules);
    const { name, rule } = found;
    let value = found.value;
    if (!rule.value) {
      if (value !== undefined && !(rules.boolEquals && (value === 'true' || value === 'false'))) refuse(kind, what, arg, `${name} takes no value`, rules);
      continue;
    }
    if (value === undefined) {
      const next = args[i + 1];
      // A separate value never starts with '-': it would be read as an option by some tools.
      const usable = next !== undefined && !next.startsWith('-') && (!rule.optional || (rule.optionalNext === true && rule.value(next) === undefined));
      if (usable) {
        value = next;
        i++;
      } else if (!rule.optional) {
        refuse(kind, what, arg, `${name} needs a value (write ${name}=VALUE)`, rules);
      }
    }
    const why = value === undefined ? undefined : rule.value(value);
    if (why) refuse(kind, what, arg === name ? `${name} ${value}` : arg, `the value of ${name} ${why}`, rules);
  }
}

/** A target is checked like a positional argument of its kind; cargo_build, npm_* and custom take none. */
function checkTarget(kind: TaskKind, target: string): void {
  const rules: ArgRules | undefined = kind === 'custom' ? undefined : TASK_ARG_RULES[kind];
  const positional = kind === 'cargo_build' || kind.startsWith('npm_') ? undefined : rules?.positional;
  if (!positional) {
    throw new AppError(ErrorCode.InvalidArgument, `${kind} takes no target`, {
      hint: kind === 'custom' ? 'args[0] is the program, the rest its arguments' : `pass what you need in args (${rules ? allowedList(rules) : ''})`,
    });
  }
  const why = positional.check(target);
  if (why) {
    throw new AppError(ErrorCode.InvalidArgument, `target '${target}' is not a plain ${kind === 'make' ? 'make target' : kind.startsWith('go_') ? 'package path or pattern' : 'test name'}: it ${why}`, {
      hint: `targets are ${positional.what}, e.g. ${kind === 'make' ? 'build or test' : kind.startsWith('go_') ? './..., ./pkg/... or example.com/mod/pkg' : 'parser::tests'}`,
    });
  }
}

/** The argv of a task: executable first. */
export function taskArgv(kind: TaskKind, target: string | undefined, args: readonly string[]): string[] {
  for (const [i, a] of args.entries()) {
    if (/[\0\n\r]/.test(a)) throw new AppError(ErrorCode.InvalidArgument, `args[${i}] contains a control character`, { hint: 'pass plain arguments' });
  }
  if (target !== undefined) checkTarget(kind, target);
  if (kind !== 'custom') checkTaskArgs(kind, args);
  switch (kind) {
    case 'go_test':
      return ['go', 'test', ...args, target ?? './...'];
    case 'go_build':
      return ['go', 'build', ...args, target ?? './...'];
    case 'go_vet':
      return ['go', 'vet', ...args, target ?? './...'];
    case 'npm_test':
      return ['npm', 'test', ...(args.length ? ['--', ...args] : [])];
    case 'npm_run_build':
      return ['npm', 'run', 'build', ...(args.length ? ['--', ...args] : [])];
    case 'cargo_test':
      return ['cargo', 'test', ...(target ? [target] : []), ...args];
    case 'cargo_build':
      return ['cargo', 'build', ...args];
    case 'make':
      return ['make', ...args, ...(target ? [target] : [])];
    case 'custom': {
      const [exe, ...rest] = args;
      if (!exe) throw new AppError(ErrorCode.InvalidArgument, 'custom needs args[0] as the executable', { hint: 'e.g. {kind:"custom", args:["pytest","-q"]}' });
      return [exe, ...rest];
    }
  }
}
