// What a user name and a project key may be. Pure checks: a reason when the value cannot be used,
// undefined when it can; the command line turns a reason into a usage error.

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export function userNameProblem(name: string): string | undefined {
  if (USER_NAME.test(name)) return undefined;
  return `user name '${name}' is not usable: use 1 to 64 letters, digits and . _ @ + - (starting with a letter or digit), e.g. alice or alice@example.com`;
}

/** Project keys are what storage.projectKey holds (by default the repository's normalised remote URL). */
export function projectKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'a project key cannot be empty';
  if (key.length > 300) return `project key '${key.slice(0, 40)}…' is longer than 300 characters`;
  if (/[\s\p{Cc}]/u.test(key)) return `project key '${key}' holds white space or control characters; use the key shown by ctxgate doctor (e.g. github.com/acme/shop)`;
  return undefined;
}
