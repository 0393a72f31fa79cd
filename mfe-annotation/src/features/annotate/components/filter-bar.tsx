import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MetadataProperty } from '@scholia/shared/api';
import { SearchInput, Select } from '@scholia/shared/ui';
import { useMetadataMetrics, useSuggestionAgents } from '../api/use-annotation-settings.js';
import { SIMILARITY_LIMITS, type Condition, type Criteria } from '../model/annotation-criteria.js';
import type { Field, Question, RecordStatusFilter } from '../model/types.js';
import { questionOptions, STATUS_FILTERS } from '../model/types.js';
import { PopoverDetails } from '../layout/popover-details.js';
import { SimilarTo } from './similar-to.js';

export interface FilterBarProps {
  datasetId: string;
  criteria: Criteria;
  onChange: (criteria: Criteria) => void;
  fields: Field[];
  questions: Question[];
  metadataProperties: MetadataProperty[];
}

type ConditionKey = Pick<Condition, 'kind' | 'name' | 'property'>;
const same = (a: ConditionKey, b: ConditionKey) => a.kind === b.kind && a.name === b.name && (a.property ?? 'value') === (b.property ?? 'value');

function TermsPicker({ label, terms, condition, onChange }: { label: string; terms: { value: string | number | boolean; text: string }[]; condition: Condition | undefined; onChange: (values: (string | number | boolean)[]) => void }) {
  const chosen = condition?.values ?? [];
  return (
    <fieldset className="mfe-ann-filter" data-testid={`filter-${label}`}>
      <legend>{label}</legend>
      {terms.map((term) => (
        <label key={String(term.value)}>
          <input type="checkbox" checked={chosen.includes(term.value)} onChange={(e) => onChange(e.target.checked ? [...chosen, term.value] : chosen.filter((v) => v !== term.value))} />
          {' '}{term.text}
        </label>
      ))}
    </fieldset>
  );
}

function RangePicker({ label, min, max, condition, onChange, step }: { label: string; min?: number | null; max?: number | null; step?: number; condition: Condition | undefined; onChange: (ge: number | undefined, le: number | undefined) => void }) {
  const { t } = useTranslation('annotation');
  const read = (v: string) => (v === '' ? undefined : Number(v));
  return (
    <fieldset className="mfe-ann-filter" data-testid={`filter-${label}`}>
      <legend>{label}</legend>
      <label>{t('filters.min')} <input type="number" step={step ?? 'any'} placeholder={min !== null && min !== undefined ? String(min) : ''} value={condition?.ge ?? ''} onChange={(e) => onChange(read(e.target.value), condition?.le)} /></label>
      <label>{t('filters.max')} <input type="number" step={step ?? 'any'} placeholder={max !== null && max !== undefined ? String(max) : ''} value={condition?.le ?? ''} onChange={(e) => onChange(condition?.ge, read(e.target.value))} /></label>
    </fieldset>
  );
}

/** Status, text search with field choice, metadata/response/suggestion filters, sort, similarity (spec §2). */
export const FilterBar = memo(function FilterBar({ datasetId, criteria, onChange, fields, questions, metadataProperties }: FilterBarProps) {
  const { t } = useTranslation('annotation');
  const [q, setQ] = useState(criteria.q);
  useEffect(() => setQ(criteria.q), [criteria.q]);
  const metrics = useMetadataMetrics(metadataProperties.map((m) => m.id));
  const agents = useSuggestionAgents(datasetId);

  const find = (key: ConditionKey) => criteria.conditions.find((c) => same(c, key));
  const setCondition = (key: ConditionKey, patch: Partial<Condition>) => {
    const rest = criteria.conditions.filter((c) => !same(c, key));
    const next: Condition = { ...key, ...patch };
    const empty = !(next.values?.length) && next.ge === undefined && next.le === undefined;
    onChange({ ...criteria, conditions: empty ? rest : [...rest, next] });
  };
  const choiceQuestions = questions.filter((q) => ['label_selection', 'multi_label_selection', 'rating'].includes(q.settings.type));
  const searchable = fields.filter((f) => f.settings.type !== 'image');
  const sort = criteria.sort[0];

  return (
    <div className="mfe-ann-filters" role="search">
      {/* The chosen status and sort say what they are ("Pending", "Default order"): their names are for screen readers and tooltips. */}
      <Select label={t('status.label')} hideLabel className="mfe-ann-filters__status" data-testid="status-filter" value={criteria.status} onChange={(e) => onChange({ ...criteria, status: e.target.value as RecordStatusFilter })}>
        {STATUS_FILTERS.map((s) => <option key={s} value={s}>{t(`status.${s}`)}</option>)}
      </Select>
      <form className="mfe-ann-search" onSubmit={(e) => { e.preventDefault(); onChange({ ...criteria, q }); }}>
        <SearchInput
          label={t('filters.searchLabel')} placeholder={t('filters.search')} value={q} data-testid="search-input"
          onChange={(e) => setQ(e.target.value)} onBlur={() => q !== criteria.q && onChange({ ...criteria, q })}
          onClear={() => { setQ(''); onChange({ ...criteria, q: '' }); }}
        />
        <Select label={t('filters.inField')} hideLabel value={criteria.field} onChange={(e) => onChange({ ...criteria, field: e.target.value })} data-testid="search-field">
          <option value="">{t('filters.allFields')}</option>
          {searchable.map((f) => <option key={f.name} value={f.name}>{f.title}</option>)}
        </Select>
      </form>
      <Select label={t('filters.sortBy')} hideLabel className="mfe-ann-filters__sort" data-testid="sort-by" value={sort?.by ?? ''} onChange={(e) => onChange({ ...criteria, sort: e.target.value ? [{ by: e.target.value, order: sort?.order ?? 'asc' }] : [] })}>
        <option value="">{t('filters.noSort')}</option>
        <option value="inserted_at">{t('filters.insertedAt')}</option>
        <option value="updated_at">{t('filters.updatedAt')}</option>
        {metadataProperties.map((m) => <option key={m.name} value={`metadata:${m.name}`}>{m.title}</option>)}
        {questions.filter((q) => q.settings.type !== 'text').map((q) => <option key={q.name} value={`suggestion-score:${q.name}`}>{t('filters.suggestionScore', { question: q.title })}</option>)}
      </Select>
      {sort && (
        // Two orders: one small button, its arrow the order in use, its name saying it; a press turns it round.
        <button
          type="button" className="sch-button sch-button--ghost mfe-ann-sort-order" data-testid="sort-order" data-order={sort.order}
          aria-label={t(sort.order === 'asc' ? 'filters.orderAsc' : 'filters.orderDesc')} title={t(sort.order === 'asc' ? 'filters.orderAsc' : 'filters.orderDesc')}
          onClick={() => onChange({ ...criteria, sort: [{ ...sort, order: sort.order === 'asc' ? 'desc' : 'asc' }] })}
        >
          <span aria-hidden="true">{sort.order === 'asc' ? '↑' : '↓'}</span>
        </button>
      )}
      <PopoverDetails className="mfe-ann-filters__more" summary={`${t('filters.title')}${criteria.conditions.length ? ` (${t('filters.active', { count: criteria.conditions.length })})` : ''}`}>
        {metadataProperties.length > 0 && <h2>{t('filters.metadata')}</h2>}
        {metadataProperties.map((m, index) => {
          const metric = metrics[index]?.data;
          const key = { kind: 'metadata' as const, name: m.name };
          if (m.settings.type === 'terms') {
            const fromSettings = (m.settings.values as unknown[] | null) ?? [];
            const terms = (fromSettings.length ? fromSettings : metric?.values?.map((v) => v.term) ?? []) as (string | number | boolean)[];
            return <TermsPicker key={m.id} label={m.title} terms={terms.map((v) => ({ value: v, text: String(v) }))} condition={find(key)} onChange={(values) => setCondition(key, { values })} />;
          }
          const min = (m.settings.min as number | null) ?? metric?.min;
          const max = (m.settings.max as number | null) ?? metric?.max;
          return <RangePicker key={m.id} label={m.title} min={min} max={max} step={m.settings.type === 'integer' ? 1 : undefined} condition={find(key)} onChange={(ge, le) => setCondition(key, { ge, le })} />;
        })}
        {choiceQuestions.length > 0 && <h2>{t('filters.responses')}</h2>}
        {choiceQuestions.map((question) => {
          const key = { kind: 'response' as const, name: question.name };
          if (question.settings.type === 'rating') {
            return <RangePicker key={question.id} label={question.title} step={1} condition={find(key)} onChange={(ge, le) => setCondition(key, { ge, le })} />;
          }
          return <TermsPicker key={question.id} label={question.title} terms={questionOptions(question).map((o) => ({ value: o.value, text: o.text }))} condition={find(key)} onChange={(values) => setCondition(key, { values })} />;
        })}
        {questions.length > 0 && <h2>{t('filters.suggestions')}</h2>}
        {questions.filter((q) => q.settings.type !== 'text').map((question) => {
          const valueKey = { kind: 'suggestion' as const, name: question.name, property: 'value' as const };
          const scoreKey = { kind: 'suggestion' as const, name: question.name, property: 'score' as const };
          const agentKey = { kind: 'suggestion' as const, name: question.name, property: 'agent' as const };
          const agentList = agents.data?.items.find((i) => i.question.name === question.name)?.agents ?? [];
          return (
            <div key={question.id} className="mfe-ann-filter-group">
              {['label_selection', 'multi_label_selection'].includes(question.settings.type) && (
                <TermsPicker label={`${question.title} · ${t('filters.value')}`} terms={questionOptions(question).map((o) => ({ value: o.value, text: o.text }))} condition={find(valueKey)} onChange={(values) => setCondition(valueKey, { values })} />
              )}
              <RangePicker label={`${question.title} · ${t('filters.score')}`} min={0} max={1} condition={find(scoreKey)} onChange={(ge, le) => setCondition(scoreKey, { ge, le })} />
              {agentList.length > 0 && (
                <TermsPicker label={`${question.title} · ${t('filters.agent')}`} terms={agentList.map((a) => ({ value: a, text: a }))} condition={find(agentKey)} onChange={(values) => setCondition(agentKey, { values })} />
              )}
            </div>
          );
        })}
        {criteria.conditions.length > 0 && <button type="button" className="sch-button sch-button--ghost" onClick={() => onChange({ ...criteria, conditions: [] })}>{t('filters.clear')}</button>}
      </PopoverDetails>
      {criteria.similar && (
        <div className="mfe-ann-similar" data-testid="similarity-bar">
          <SimilarTo recordId={criteria.similar.record} fields={fields} />
          <Select label={t('similarity.most')} hideLabel value={criteria.similar.order} onChange={(e) => onChange({ ...criteria, similar: { ...criteria.similar!, order: e.target.value as 'most_similar' | 'least_similar' } })}>
            <option value="most_similar">{t('similarity.most')}</option>
            <option value="least_similar">{t('similarity.least')}</option>
          </Select>
          <Select label={t('similarity.limit')} hideLabel value={criteria.similar.limit} onChange={(e) => onChange({ ...criteria, similar: { ...criteria.similar!, limit: Number(e.target.value) } })}>
            {SIMILARITY_LIMITS.map((n) => <option key={n} value={n}>{n}</option>)}
          </Select>
          <button type="button" className="sch-button sch-button--ghost" onClick={() => onChange({ ...criteria, similar: undefined })}>{t('similarity.clear')}</button>
        </div>
      )}
    </div>
  );
});
