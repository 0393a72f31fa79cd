import { mappedFields, metadataColumns, splitOptions, textFieldNames, type DatasetConfiguration } from './dataset-configuration.js';
import type { QuestionConfig } from './question-defaults.js';

/**
 * Validation of spec §5 as message keys of the 'hubImport' namespace (`validation.*`), so the
 * rules are testable without i18n and every language words them.
 */
export type ValidationKey =
  | 'required' | 'max200' | 'max500' | 'atLeastOneQuestion' | 'atLeastOneRequired' | 'hasInvalidQuestions'
  | 'oneTextFieldRequired' | 'atLeastTwoOptions' | 'emptyOption' | 'duplicateOptions' | 'ratingOptions'
  | 'atLeastOneField' | 'duplicateName' | 'workspaceRequired';

export const TITLE_MAX = { question: 200, description: 500, field: 500, metadata: 500 } as const;

export interface QuestionErrors {
  name?: ValidationKey;
  title?: ValidationKey;
  description?: ValidationKey;
  options?: ValidationKey;
  field?: ValidationKey;
}

export function validateQuestion(question: QuestionConfig, context: { textFields: string[]; otherNames: string[] }): QuestionErrors {
  const errors: QuestionErrors = {};
  const name = question.name.trim();
  if (!name) errors.name = 'required';
  else if (name.length > 200) errors.name = 'max200';
  else if (context.otherNames.includes(name)) errors.name = 'duplicateName';
  const title = question.title.trim();
  if (!title) errors.title = 'required';
  else if (title.length > TITLE_MAX.question) errors.title = 'max200';
  if (question.description.trim().length > TITLE_MAX.description) errors.description = 'max500';

  if (['label_selection', 'multi_label_selection', 'span', 'ranking', 'rating'].includes(question.type)) {
    const options = splitOptions(question.options);
    const labels = options.filter(Boolean);
    if (labels.length < 2) errors.options = 'atLeastTwoOptions';
    else if (labels.length !== options.length) errors.options = 'emptyOption';
    else if (new Set(labels).size !== labels.length) errors.options = 'duplicateOptions';
    else if (question.type === 'rating' && !labels.every((l) => /^\d+$/.test(l) && Number(l) <= 10)) errors.options = 'ratingOptions';
  }
  if (question.type === 'span' && (!question.field || !context.textFields.includes(question.field))) errors.field = 'oneTextFieldRequired';
  return errors;
}

export interface ConfigurationErrors {
  name?: ValidationKey;
  workspace?: ValidationKey;
  /** Field/metadata title errors by column name. */
  columns: Record<string, ValidationKey>;
  questions: Record<string, QuestionErrors>;
  /** Dataset-level messages (spec §5 hub dataset creation). */
  general: ValidationKey[];
}

export const hasErrors = (errors: QuestionErrors) => Object.values(errors).some(Boolean);

export function validateConfiguration(config: DatasetConfiguration): ConfigurationErrors {
  const errors: ConfigurationErrors = { columns: {}, questions: {}, general: [] };
  if (!config.name.trim()) errors.name = 'required';
  else if (config.name.trim().length > 200) errors.name = 'max200';
  if (!config.workspace.id && !config.workspace.name.trim()) errors.workspace = 'workspaceRequired';

  for (const column of [...mappedFields(config), ...metadataColumns(config)]) {
    if (column.title.trim().length > TITLE_MAX.field) errors.columns[column.column.name] = 'max500';
  }
  if (mappedFields(config).length === 0) errors.general.push('atLeastOneField');

  const textFields = textFieldNames(config);
  for (const question of config.questions) {
    const otherNames = config.questions.filter((q) => q.key !== question.key).map((q) => q.name.trim());
    const questionErrors = validateQuestion(question, { textFields, otherNames });
    if (hasErrors(questionErrors)) errors.questions[question.key] = questionErrors;
  }
  if (config.questions.length === 0) errors.general.push('atLeastOneQuestion');
  else if (!config.questions.some((q) => q.required)) errors.general.push('atLeastOneRequired');
  if (Object.keys(errors.questions).length > 0) errors.general.push('hasInvalidQuestions');
  return errors;
}

export function isConfigurationValid(errors: ConfigurationErrors): boolean {
  return !errors.name && !errors.workspace && Object.keys(errors.columns).length === 0 && errors.general.length === 0;
}
