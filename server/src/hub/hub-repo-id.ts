import { UnprocessableError } from '../errors.js';

/** The Hub's own limit on a namespace or repository name. */
const MAX_PART_LENGTH = 96;
const PART = /^[A-Za-z0-9_.-]+$/;

/**
 * Why `id` is not a Hub repository id (`name` or `owner/name`), or undefined when it is one. The
 * rules are the Hub's: each part of letters, digits, `-`, `_` and `.`, neither starting nor
 * ending with `-` or `.`, without `--` or `..`, at most 96 characters. Checked before any request
 * because the id becomes part of a Hub URL path: `../../admin/x` would send the user's token to
 * another endpoint of the Hub host.
 */
export function hubRepoIdProblem(id: string): string | undefined {
  const parts = id.split('/');
  if (parts.length > 2) return 'it has more than one `/`';
  for (const part of parts) {
    if (part.length === 0) return 'the owner and the name must not be empty';
    if (part.length > MAX_PART_LENGTH) return `the owner and the name have at most ${MAX_PART_LENGTH} characters each`;
    if (!PART.test(part)) return 'only letters, digits, `-`, `_` and `.` are allowed';
    if (/^[-.]|[-.]$/.test(part)) return 'the owner and the name must not start or end with `-` or `.`';
    if (part.includes('--') || part.includes('..')) return '`--` and `..` are not allowed';
  }
  return undefined;
}

/** 422 naming the rule `id` breaks; nothing is sent to the Hub. */
export function assertHubRepoId(id: string): void {
  const problem = hubRepoIdProblem(id);
  if (problem) throw new UnprocessableError(`\`${id}\` is not a valid Hugging Face dataset name (owner/name): ${problem}`);
}

/**
 * Subsets and splits of an export become a folder and a file name in the repository: one path
 * segment, never `.` or `..`.
 */
export function assertHubPathSegment(value: string, what: 'subset' | 'split'): void {
  if (/[/\\\u0000-\u001f]/.test(value) || value === '.' || value === '..') {
    throw new UnprocessableError(`\`${value}\` is not a valid ${what} name: it must not contain \`/\`, \`\\\` or control characters, nor be \`.\` or \`..\``);
  }
}
