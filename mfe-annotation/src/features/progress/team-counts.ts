import type { UsersProgress } from '@scholia/shared/api';

export interface AnnotatorCounts {
  username: string;
  submitted: number;
  draft: number;
  discarded: number;
}

/** One row per annotator: their responses by status, whatever the record's status; most submitted first. */
export function annotatorCounts(progress: UsersProgress): AnnotatorCounts[] {
  return progress.users
    .map(({ username, completed, pending }) => ({
      username,
      submitted: completed.submitted + pending.submitted,
      draft: completed.draft + pending.draft,
      discarded: completed.discarded + pending.discarded,
    }))
    .sort((a, b) => b.submitted - a.submitted || a.username.localeCompare(b.username));
}
