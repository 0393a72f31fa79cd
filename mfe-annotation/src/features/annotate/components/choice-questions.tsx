import { useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { oneDecimal, scoreForOption } from '../model/initial-answers.js';
import type { Question, QuestionOption, RecordSuggestion } from '../model/types.js';
import { questionOptions } from '../model/types.js';

/** The digit 0–9 a key press stands for, unless it is typed into a field or held with a modifier. */
function shortcutDigit(event: KeyboardEvent): number | undefined {
  const target = event.target as HTMLElement;
  if (target.closest('textarea, input[type="text"], input[type="number"], input[type="search"], select')) return undefined;
  if (event.ctrlKey || event.metaKey || event.altKey) return undefined;
  return /^[0-9]$/.test(event.key) ? Number(event.key) : undefined;
}

/** Digit keys 1–9 pick the n-th option of the focused question (shortcuts). */
export function digitIndex(event: KeyboardEvent): number | undefined {
  const n = shortcutDigit(event);
  return n !== undefined && n >= 1 ? n - 1 : undefined;
}

interface OptionButtonProps {
  option: QuestionOption;
  selected: boolean;
  suggestedScore: number | undefined;
  suggested: boolean;
  /** The key that picks it, shown as a hint. */
  shortcut: string | undefined;
  onToggle: () => void;
}

function OptionButton({ option, selected, suggested, suggestedScore, shortcut, onToggle }: OptionButtonProps) {
  return (
    <button
      type="button"
      // The group is the question's one Tab stop: Tab moves on to the next question.
      tabIndex={-1}
      className={`mfe-ann-option${selected ? ' is-selected' : ''}${suggested ? ' is-suggested' : ''}`}
      aria-pressed={selected}
      title={option.description ?? undefined}
      onClick={onToggle}
    >
      {shortcut !== undefined && <kbd aria-hidden="true">{shortcut}</kbd>}
      <bdi>{option.text}</bdi>
      {suggested && <span className="mfe-ann-option__score" aria-hidden="true">✦{suggestedScore !== undefined ? ` ${oneDecimal(suggestedScore)}` : ''}</span>}
    </button>
  );
}

export interface ChoiceQuestionProps {
  question: Question;
  value: unknown;
  suggestion: RecordSuggestion | undefined;
  /** The value is the preselected suggestion, untouched: a digit replaces it instead of toggling. */
  preselected?: boolean;
  onChange: (value: unknown) => void;
}

function isSuggested(suggestion: RecordSuggestion | undefined, value: string): boolean {
  if (!suggestion) return false;
  return Array.isArray(suggestion.value) ? (suggestion.value as unknown[]).map(String).includes(value) : String(suggestion.value) === value;
}

/**
 * label_selection and multi_label_selection. The visible-options control only shows with more
 * than 3 options (spec §3, §9); multi-label may order options by suggestion score.
 */
export function LabelQuestion({ question, value, suggestion, preselected, onChange }: ChoiceQuestionProps) {
  const { t } = useTranslation('annotation');
  const multi = question.settings.type === 'multi_label_selection';
  const [expanded, setExpanded] = useState(false);
  const options = useMemo(() => {
    const all = questionOptions(question);
    if (!multi || question.settings.options_order !== 'suggestion' || !suggestion) return all;
    const score = (o: QuestionOption) => (isSuggested(suggestion, o.value) ? scoreForOption(suggestion, o.value) ?? 0 : -1);
    return [...all].sort((a, b) => score(b) - score(a));
  }, [question, multi, suggestion]);
  const selected: string[] = multi ? (Array.isArray(value) ? (value as string[]) : []) : typeof value === 'string' ? [value] : [];
  const limit = typeof question.settings.visible_options === 'number' ? question.settings.visible_options : options.length;
  const limited = options.length > 3 && limit < options.length && !expanded;
  const shown = limited ? options.filter((o, i) => i < limit || selected.includes(o.value)) : options;

  const toggle = (option: string) => {
    if (multi) {
      const next = selected.includes(option) ? selected.filter((v) => v !== option) : [...selected, option];
      onChange(next.length ? next : undefined);
    } else onChange(selected[0] === option ? undefined : option);
  };

  // Digits count every option, hidden ones too: a picked option shows, as selected ones do.
  const onKeyDown = (event: KeyboardEvent) => {
    const index = digitIndex(event);
    const option = index === undefined ? undefined : options[index];
    if (!option) return;
    event.preventDefault();
    if (preselected) onChange(multi ? [option.value] : option.value);
    else toggle(option.value);
  };

  return (
    <div className="mfe-ann-options" role="group" aria-label={question.title} tabIndex={0} onKeyDown={onKeyDown} data-question-focus data-testid={`question-input-${question.name}`}>
      {shown.map((option) => (
        <OptionButton
          key={option.value}
          option={option}
          shortcut={options.indexOf(option) < 9 ? String(options.indexOf(option) + 1) : undefined}
          selected={selected.includes(option.value)}
          suggested={isSuggested(suggestion, option.value)}
          suggestedScore={scoreForOption(suggestion, option.value)}
          onToggle={() => toggle(option.value)}
        />
      ))}
      {options.length > 3 && limit < options.length && (
        <button type="button" className="mfe-ann-link" onClick={() => setExpanded((e) => !e)}>
          {expanded ? t('record.showLess') : t('record.showMore', { count: options.length - shown.length })}
        </button>
      )}
    </div>
  );
}

export function RatingQuestion({ question, value, suggestion, preselected, onChange }: ChoiceQuestionProps) {
  const options = questionOptions(question);
  // A digit picks the rating of that value, so on a 0–10 scale "1" means 1, not the second option.
  const onKeyDown = (event: KeyboardEvent) => {
    const digit = shortcutDigit(event);
    if (digit === undefined || !options.some((option) => Number(option.value) === digit)) return;
    event.preventDefault();
    onChange(value === digit && !preselected ? undefined : digit);
  };
  return (
    <div className="mfe-ann-options mfe-ann-options--rating" role="group" aria-label={question.title} tabIndex={0} onKeyDown={onKeyDown} data-question-focus data-testid={`question-input-${question.name}`}>
      {options.map((option) => {
        const n = Number(option.value);
        return (
          <OptionButton
            key={option.value}
            option={option}
            shortcut={Number.isInteger(n) && n >= 0 && n <= 9 ? String(n) : undefined}
            selected={value === n}
            suggested={isSuggested(suggestion, option.value)}
            suggestedScore={scoreForOption(suggestion, option.value)}
            onToggle={() => onChange(value === n ? undefined : n)}
          />
        );
      })}
    </div>
  );
}
