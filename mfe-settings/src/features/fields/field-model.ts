import type { Field } from '@scholia/shared/api';

/** What the field editor changes: title, the Markdown toggle (text, chat), the custom template. */
export interface FieldDraft {
  title: string;
  useMarkdown: boolean;
  template: string;
}

export const hasMarkdownToggle = (field: Field) => field.settings.type === 'text' || field.settings.type === 'chat';
export const hasTemplate = (field: Field) => field.settings.type === 'custom';

export function toFieldDraft(field: Field): FieldDraft {
  return {
    title: field.title,
    useMarkdown: field.settings.use_markdown === true,
    template: typeof field.settings.template === 'string' ? field.settings.template : '',
  };
}

/**
 * PATCH /fields/{id} body. The title is trimmed and an empty one falls back to the field name
 * (spec §5); settings carry the type and every key of that type (contract §3.2).
 */
export function toFieldPatch(field: Field, draft: FieldDraft): { title: string; settings: Field['settings'] } {
  const settings: Field['settings'] = { ...field.settings };
  if (hasMarkdownToggle(field)) settings.use_markdown = draft.useMarkdown;
  if (hasTemplate(field)) {
    settings.template = draft.template;
    settings.advanced_mode = field.settings.advanced_mode === true;
  }
  return { title: draft.title.trim() || field.name, settings };
}
