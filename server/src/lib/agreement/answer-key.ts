/**
 * A canonical text form of one answer per question type, so two answers compare equal when they
 * mean the same: multi-label selections and spans are sets (their order carries no meaning),
 * rankings are compared by the rank given to each option.
 */
export function answerKey(type: string, value: unknown): string {
  switch (type) {
    case 'multi_label_selection':
      return Array.isArray(value) ? JSON.stringify([...value].map(String).sort()) : JSON.stringify(value);
    case 'span':
      return Array.isArray(value) ? JSON.stringify(value.map(spanKey).sort()) : JSON.stringify(value);
    case 'ranking':
      return Array.isArray(value) ? JSON.stringify(value.map(rankKey).sort()) : JSON.stringify(value);
    default:
      return JSON.stringify(value);
  }
}

function spanKey(span: unknown): string {
  const s = (span ?? {}) as { start?: unknown; end?: unknown; label?: unknown };
  return `${String(s.start)}:${String(s.end)}:${String(s.label)}`;
}

function rankKey(item: unknown): string {
  const r = (item ?? {}) as { value?: unknown; rank?: unknown };
  return `${String(r.value)}=${String(r.rank)}`;
}
