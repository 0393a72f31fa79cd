import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { addSpan, expandToWords, labelColors, selectionToSpan, spanText, toUtf16Offset } from '../model/span-selection.js';
import type { Field, Question, QuestionOption, SpanItem } from '../model/types.js';
import { questionOptions } from '../model/types.js';
import { digitIndex } from './choice-questions.js';
import { useSearchHighlight } from './use-search-highlight.js';

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}

/** The CSS Custom Highlight API, when the browser has it. */
function highlightApi(): { registry: HighlightRegistry; Highlight: new (...ranges: Range[]) => unknown } | undefined {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  const Highlight = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  return css?.highlights && Highlight ? { registry: css.highlights, Highlight } : undefined;
}

/** A span question's options and the colour of each label. */
function useSpanOptions(question: Question): { options: QuestionOption[]; colourOf: (value: string) => string } {
  const options = useMemo(() => questionOptions(question), [question]);
  const colours = useMemo(() => labelColors(options.map((o) => o.value)), [options]);
  return { options, colourOf: (value: string) => colours.get(value) ?? 'transparent' };
}

/** The spans an answer (or, read-only, a suggestion) holds. */
export const toSpans = (value: unknown): SpanItem[] => (Array.isArray(value) ? (value as SpanItem[]) : []);

export interface SpanTextProps {
  question: Question;
  field: Field | undefined;
  text: string;
  spans: SpanItem[];
  /** The label a selection gets; none when read-only. */
  label: string | undefined;
  onChange: (value: unknown) => void;
  readOnly?: boolean;
  /** Words of a text search to mark; painted over the text, so selections keep their offsets. */
  terms?: readonly string[];
}

const NO_TERMS: readonly string[] = [];

/**
 * A span question's text, in the record pane where the record's other fields are: select text
 * and the selection becomes a span (in code points) of the label chosen in the questions panel;
 * spans are painted with the CSS Custom Highlight API.
 */
export function SpanText({ question, field, text, spans, label, onChange, readOnly, terms = NO_TERMS }: SpanTextProps) {
  const uid = useId().replace(/[^a-zA-Z0-9]/g, '');
  const { options, colourOf } = useSpanOptions(question);
  const textRef = useRef<HTMLParagraphElement>(null);
  const fieldName = String(question.settings.field);
  const title = field?.title ?? fieldName;
  const api = highlightApi();
  const allowOverlapping = Boolean(question.settings.allow_overlapping);
  const characterLevel = question.settings.allow_character_annotation !== false;
  useSearchHighlight(textRef, terms);

  // Paint one highlight per label; the CSS for ::highlight() is generated below.
  useEffect(() => {
    const node = textRef.current?.firstChild;
    if (!api || !node) return;
    const names: string[] = [];
    options.forEach((option, index) => {
      const ranges = spans.filter((s) => s.label === option.value).map((s) => {
        const range = document.createRange();
        range.setStart(node, toUtf16Offset(text, s.start));
        range.setEnd(node, toUtf16Offset(text, s.end));
        return range;
      });
      const name = `ann-${uid}-${index}`;
      names.push(name);
      if (ranges.length) api.registry.set(name, new api.Highlight(...ranges));
      else api.registry.delete(name);
    });
    return () => names.forEach((name) => api.registry.delete(name));
  });

  const styles = options.map((o, i) => `::highlight(ann-${uid}-${i}){background-color:${colourOf(o.value)};color:#111}`).join('\n');

  const onSelect = () => {
    if (readOnly || !label) return;
    const selection = window.getSelection();
    const node = textRef.current?.firstChild;
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed || !node) return;
    const range = selection.getRangeAt(0);
    if (range.startContainer !== node || range.endContainer !== node) return;
    let [start, end] = [range.startOffset, range.endOffset];
    if (!characterLevel) [start, end] = expandToWords(text, start, end);
    const span = selectionToSpan(text, start, end, label);
    selection.removeAllRanges();
    if (span) onChange(addSpan(spans, span, allowOverlapping));
  };

  return (
    <section className="mfe-ann-field mfe-ann-span-field" aria-label={title} data-testid={`field-${fieldName}`}>
      <style>{styles}</style>
      <h2 className="mfe-ann-field__title" dir="auto">{title}</h2>
      <p ref={textRef} className="mfe-ann-text mfe-ann-span__text" dir="auto" data-testid={`span-text-${question.name}`} onMouseUp={onSelect} onKeyUp={onSelect}>{text}</p>
      {readOnly && <SpanList question={question} text={text} spans={spans} />}
    </section>
  );
}

/** The spans as a list (readable where the browser cannot paint them), each removable unless read-only. */
function SpanList({ question, text, spans, onChange }: { question: Question; text: string; spans: SpanItem[]; onChange?: (value: unknown) => void }) {
  const { t } = useTranslation('annotation');
  const { options, colourOf } = useSpanOptions(question);
  if (spans.length === 0) return null;
  return (
    <ul className="mfe-ann-span__list" aria-label={t('record.spans')}>
      {spans.map((span) => {
        const label = options.find((o) => o.value === span.label)?.text ?? span.label;
        return (
          <li key={`${span.start}-${span.end}-${span.label}`} data-testid="span-chip">
            <span className="mfe-ann-swatch" style={{ background: colourOf(span.label) }} aria-hidden="true" />
            <bdi>{t('format.labelled', { label, value: `“${spanText(text, span)}”` })}</bdi>
            {onChange && (
              <button type="button" className="mfe-ann-link" aria-label={t('record.removeSpan', { label, text: spanText(text, span) })} onClick={() => onChange(spans.filter((s) => s !== span))}>×</button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export interface SpanLabelsProps {
  question: Question;
  field: Field | undefined;
  text: string;
  value: unknown;
  label: string | undefined;
  onLabel: (label: string) => void;
  onChange: (value: unknown) => void;
}

/**
 * A span question in the questions panel: its labels (a radio group: the arrows move between
 * them, digits pick one) and the spans given, as Argilla lays it out; the text is in the record pane.
 */
export function SpanLabels({ question, field, text, value, label, onLabel, onChange }: SpanLabelsProps) {
  const { t } = useTranslation('annotation');
  const { options, colourOf } = useSpanOptions(question);
  const fieldTitle = field?.title ?? String(question.settings.field);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      const current = options.findIndex((o) => o.value === label);
      const next = options[(current + step + options.length) % options.length];
      if (next) onLabel(next.value);
      return;
    }
    const index = digitIndex(event);
    if (index === undefined || !options[index]) return;
    event.preventDefault();
    onLabel(options[index]!.value);
  };

  return (
    <div className="mfe-ann-span" data-testid={`question-input-${question.name}`}>
      {!highlightApi() && <p role="alert" className="mfe-ann-field__error">{t('messages.spanUnsupported')}</p>}
      <div className="mfe-ann-options" role="radiogroup" aria-label={question.title} tabIndex={0} onKeyDown={onKeyDown} data-question-focus>
        {options.map((option, index) => (
          <button key={option.value} type="button" tabIndex={-1} role="radio" aria-checked={label === option.value} className={`mfe-ann-option${label === option.value ? ' is-selected' : ''}`} style={{ borderColor: colourOf(option.value) }} onClick={() => onLabel(option.value)}>
            {index < 9 && <kbd aria-hidden="true">{index + 1}</kbd>}
            <span className="mfe-ann-swatch" style={{ background: colourOf(option.value) }} aria-hidden="true" />
            <bdi>{option.text}</bdi>
          </button>
        ))}
      </div>
      <p className="sch-muted">{t('record.spanHint', { field: fieldTitle })}</p>
      <SpanList question={question} text={text} spans={toSpans(value)} onChange={onChange} />
    </div>
  );
}
