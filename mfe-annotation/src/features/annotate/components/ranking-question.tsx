import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Question, QuestionOption, RankingItem } from '../model/types.js';
import { questionOptions } from '../model/types.js';

/** Every option once, ranked ones first by rank, unranked ones after in option order. */
export function rankingRows(options: QuestionOption[], value: unknown): RankingItem[] {
  const given = Array.isArray(value) ? (value as RankingItem[]) : [];
  const rows = options.map((o) => ({ value: o.value, rank: given.find((g) => g.value === o.value)?.rank ?? null }));
  return rows.sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
}

function SortableRow({ item, option, count, onRank }: { item: RankingItem; option: QuestionOption; count: number; onRank: (rank: number | null) => void }) {
  const { t } = useTranslation('annotation');
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.value });
  return (
    <li ref={setNodeRef} className={`mfe-ann-rank${isDragging ? ' is-dragging' : ''}`} style={{ transform: CSS.Transform.toString(transform), transition }} data-testid={`rank-item-${option.value}`}>
      <button type="button" className="mfe-ann-rank__handle" aria-label={t('record.dragHandle', { option: option.text })} {...attributes} {...listeners}>⠿</button>
      <span className="mfe-ann-rank__text">{option.text}</span>
      <select aria-label={t('record.rankOf', { option: option.text })} value={item.rank ?? ''} onChange={(e) => onRank(e.target.value === '' ? null : Number(e.target.value))}>
        <option value="">{t('record.unranked')}</option>
        {Array.from({ length: count }, (_, i) => <option key={i + 1} value={i + 1}>{i + 1}</option>)}
      </select>
    </li>
  );
}

/**
 * Ranking (spec §3): drag and drop with pointer or keyboard (dnd-kit's keyboard sensor), or a rank
 * per option. Dropping ranks every option by its position.
 */
export function RankingQuestion({ question, value, onChange }: { question: Question; value: unknown; onChange: (value: unknown) => void }) {
  const { t } = useTranslation('annotation');
  const options = useMemo(() => questionOptions(question), [question]);
  const rows = rankingRows(options, value);
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const emit = (next: RankingItem[]) => onChange(next.some((r) => r.rank !== null) ? next : undefined);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const from = rows.findIndex((r) => r.value === active.id);
    const to = rows.findIndex((r) => r.value === over.id);
    emit(arrayMove(rows, from, to).map((row, index) => ({ value: row.value, rank: index + 1 })));
  };

  return (
    <div className="mfe-ann-ranking" data-testid={`question-input-${question.name}`}>
      <p className="sch-muted">{t('record.dragHint')}</p>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={rows.map((r) => r.value)} strategy={verticalListSortingStrategy}>
          <ol className="mfe-ann-ranking__list">
            {rows.map((row) => (
              <SortableRow
                key={row.value}
                item={row}
                option={options.find((o) => o.value === row.value)!}
                count={options.length}
                onRank={(rank) => emit(rows.map((r) => (r.value === row.value ? { ...r, rank } : r)))}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </div>
  );
}
