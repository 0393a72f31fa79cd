import { UnprocessableError } from '../../errors.js';
import { checkBoolean, checkString, type Loc } from '../../lib/input-check.js';
import { fromJson } from '../../storage/json.js';

/** Field settings as stored and output (contract §3.2). */
export type FieldSettings =
  | { type: 'text'; use_markdown: boolean }
  | { type: 'image' }
  | { type: 'chat'; use_markdown: boolean }
  | { type: 'custom'; template: string; advanced_mode: boolean };

export type FieldType = FieldSettings['type'];

export function readFieldSettings(stored: unknown): FieldSettings {
  return fromJson<FieldSettings>(stored);
}

/** `POST` settings: text `use_markdown` false, chat `use_markdown` true, custom needs `template`. */
export function parseFieldSettingsCreate(raw: Record<string, unknown>, baseLoc: Loc = ['body', 'settings']): FieldSettings {
  const type = raw.type as FieldType;
  const loc = [...baseLoc, type];
  switch (type) {
    case 'text':
      return { type, use_markdown: checkBoolean(raw, 'use_markdown', loc, { optional: true }) ?? false };
    case 'image':
      return { type };
    case 'chat':
      return { type, use_markdown: checkBoolean(raw, 'use_markdown', loc, { optional: true }) ?? true };
    case 'custom':
      return {
        type,
        template: checkString(raw, 'template', loc)!,
        advanced_mode: checkBoolean(raw, 'advanced_mode', loc, { optional: true }) ?? false,
      };
  }
}

/**
 * `PATCH` settings: the type must stay the same and every key of the type is required;
 * the given settings are shallow-merged into the stored ones.
 */
export function applyFieldSettingsUpdate(current: FieldSettings, raw: Record<string, unknown>, baseLoc: Loc = ['body', 'settings']): FieldSettings {
  const type = raw.type as FieldType;
  const loc = [...baseLoc, type];
  let update: FieldSettings;
  switch (type) {
    case 'text':
    case 'chat':
      update = { type, use_markdown: checkBoolean(raw, 'use_markdown', loc)! };
      break;
    case 'image':
      update = { type };
      break;
    case 'custom':
      update = { type, template: checkString(raw, 'template', loc)!, advanced_mode: checkBoolean(raw, 'advanced_mode', loc)! };
      break;
  }
  if (type !== current.type) {
    throw new UnprocessableError(`Field type cannot be changed. Expected '${current.type}' but got '${type}'`);
  }
  return { ...current, ...update } as FieldSettings;
}
