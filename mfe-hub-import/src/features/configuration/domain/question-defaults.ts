/** Question types of spec §3. */
export type QuestionType = 'label_selection' | 'multi_label_selection' | 'ranking' | 'text' | 'span' | 'rating';

export const QUESTION_TYPES: readonly QuestionType[] = ['label_selection', 'multi_label_selection', 'rating', 'ranking', 'text', 'span'];

/** A question while it is being configured; options are the editable comma-separated text. */
export interface QuestionConfig {
  /** Local identity (names may be edited). */
  key: string;
  name: string;
  title: string;
  description: string;
  required: boolean;
  type: QuestionType;
  options: string;
  /** span: the text field it annotates. */
  field?: string;
  allowOverlapping: boolean;
  optionsOrder: 'natural' | 'suggestion';
  useMarkdown: boolean;
}

/** Spec §9: defaults of new hub questions; rating 0 to 10. */
export const DEFAULT_OPTIONS: Record<QuestionType, string[]> = {
  label_selection: ['positive', 'negative', 'neutral'],
  multi_label_selection: ['news', 'sports', 'international', 'politics'],
  ranking: ['Option 1', 'Option 2'],
  span: ['organisation', 'person', 'event'],
  rating: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
  text: [],
};

const BASE_NAMES: Record<QuestionType, string> = {
  label_selection: 'label',
  multi_label_selection: 'labels',
  ranking: 'ranking',
  span: 'span',
  rating: 'rating',
  text: 'text',
};

let counter = 0;

/**
 * A new question with the defaults of spec §9: required (spec §9 "a single new question is
 * required by default"), span overlapping and on the first text field.
 */
export function newQuestion(type: QuestionType, context: { existingNames: string[]; textFields: string[]; name?: string }): QuestionConfig {
  const base = context.name ?? BASE_NAMES[type];
  let name = base;
  for (let n = 1; context.existingNames.includes(name); n += 1) name = `${base}_${n}`;
  counter += 1;
  return {
    key: `question:${counter}:${name}`,
    name,
    title: name,
    description: '',
    required: true,
    type,
    options: DEFAULT_OPTIONS[type].join(', '),
    field: type === 'span' ? context.textFields[0] : undefined,
    allowOverlapping: type === 'span',
    optionsOrder: 'natural',
    useMarkdown: false,
  };
}
