/** Completed share with 2 decimals (spec §9); 0 for an empty dataset. */
export function progressPercent(completed: number, total: number): string {
  if (total <= 0) return (0).toFixed(2);
  return ((completed / total) * 100).toFixed(2);
}
