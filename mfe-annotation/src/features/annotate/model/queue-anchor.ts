/** How many records after the one shown are remembered, in case it left the queue meanwhile. */
const REMEMBERED_AHEAD = 20;

/**
 * Whose position it is: one user on one server. Two annotation pages on one page, or two users
 * one after the other in one tab, may open the same dataset id; each keeps a position of its own.
 */
export interface AnchorOwner {
  /** Absolute API root, e.g. `https://labels.example.org/api/`. */
  serverUrl: string;
  userId: string;
}

const storageKey = ({ serverUrl, userId }: AnchorOwner, datasetId: string, criteriaKey: string) =>
  `scholia.annotation.position:${serverUrl}:${userId}:${datasetId}:${criteriaKey}`;

/**
 * Remembers, for this tab, the record shown in a queue and those after it, so a reload or a fresh
 * queue reopens on it by id (RecordQueue.resume). A browser without storage just goes by page.
 */
export function rememberAnchor(owner: AnchorOwner, datasetId: string, criteriaKey: string, shown: string, following: readonly string[]): void {
  try {
    sessionStorage.setItem(storageKey(owner, datasetId, criteriaKey), JSON.stringify([shown, ...following.slice(0, REMEMBERED_AHEAD)]));
  } catch {
    // Storage full or disabled: the position falls back to the page number.
  }
}

export function readAnchor(owner: AnchorOwner, datasetId: string, criteriaKey: string): string[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(storageKey(owner, datasetId, criteriaKey)) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
