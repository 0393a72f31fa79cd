import type { HubColumn } from '../domain/hub-columns.js';
import { previewCell } from '../domain/preview.js';

interface ChatMessage { role?: string; content?: unknown }

/** Image URLs an `<img>` may load (what the server accepts for image fields): web or data:image. */
const IMAGE_SRC = /^(https?:\/\/|data:image\/)/i;

/** One hub cell as a record field would show it: text, image, chat or a short JSON. */
export function CellView({ column, cell, compact = false }: { column: HubColumn; cell: unknown; compact?: boolean }) {
  const value = previewCell(column, cell);
  if (value === undefined || value === null) return <span className="sch-muted">—</span>;
  if (column.kind === 'image' && typeof value === 'string' && IMAGE_SRC.test(value)) {
    return <img className={compact ? 'mfe-hub-import__thumb' : 'mfe-hub-import__image'} src={value} alt={column.name} />;
  }
  if (column.kind === 'chat' && Array.isArray(value)) {
    return (
      <ol className="mfe-hub-import__chat">
        {(value as ChatMessage[]).slice(0, compact ? 2 : undefined).map((message, i) => (
          <li key={i} data-role={message.role}><strong>{message.role}</strong>: {String(message.content ?? '')}</li>
        ))}
      </ol>
    );
  }
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : JSON.stringify(value);
  return <span className={compact ? 'mfe-hub-import__clip' : undefined}>{compact && text.length > 120 ? `${text.slice(0, 120)}…` : text}</span>;
}
