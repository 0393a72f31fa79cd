/** How many records after the one shown are remembered, in case it left the queue meanwhile. */
const REMEMBERED_AHEAD = 20;

const storageKey = (datasetId: string, criteriaKey: string) => `scholia.annotation.position:${datasetId}:${criteriaKey}`;

/**
 * Remembers, for this tab, the record shown in a queue and those after it, so a reload or a fresh
 * queue reopens on it by id (RecordQueue.resume). A browser without storage just goes by page.
 */
export function rememberAnchor(datasetId: string, criteriaKey: string, shown: string, following: readonly string[]): void {
  try {
    sessionStorage.setItem(storageKey(datasetId, criteriaKey), JSON.stringify([shown, ...following.slice(0, REMEMBERED_AHEAD)]));
  } catch {
    // Storage full or disabled: the position falls back to the page number.
  }
}

export function readAnchor(datasetId: string, criteriaKey: string): string[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(storageKey(datasetId, criteriaKey)) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
