import { useTranslation } from 'react-i18next';
import { ID_COLUMN, type ColumnConfig, type ColumnRole, type DatasetConfiguration } from '../domain/dataset-configuration.js';
import type { ValidationKey } from '../domain/validation.js';

/** `<select>` value of a role, and back. */
export function roleValue(role: ColumnRole): string {
  if (role.kind === 'field') return `field:${role.type}`;
  if (role.kind === 'metadata') return `metadata:${role.type}`;
  return `suggestion:${role.questionKey}`;
}

export function parseRoleValue(value: string): ColumnRole {
  const [kind, ...rest] = value.split(':');
  const arg = rest.join(':');
  if (kind === 'metadata') return { kind: 'metadata', type: arg as 'terms' | 'integer' | 'float' };
  if (kind === 'suggestion') return { kind: 'suggestion', questionKey: arg };
  return { kind: 'field', type: arg as 'no mapping' | 'text' | 'image' | 'chat' };
}

export interface ColumnMappingProps {
  config: DatasetConfiguration;
  errors: Record<string, ValidationKey>;
  onChange(column: string, patch: Partial<ColumnConfig>): void;
}

/** One row per hub column: what it maps to (field type, metadata, suggestion or nothing) and its title. */
export function ColumnMapping({ config, errors, onChange }: ColumnMappingProps) {
  const { t } = useTranslation('hubImport');
  return (
    <table className="mfe-hub-import__table mfe-hub-import__mapping">
      <thead>
        <tr><th>{t('column')}</th><th>{t('editor.mapsTo')}</th><th>{t('editor.title')}</th><th>{t('editor.required')}</th></tr>
      </thead>
      <tbody>
        {config.columns.map((c) => {
          const name = c.column.name;
          if (name === ID_COLUMN) {
            return (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td colSpan={3} className="sch-muted">{t('editor.externalId')}</td>
              </tr>
            );
          }
          const isField = c.role.kind === 'field' && c.role.type !== 'no mapping';
          const hasTitle = isField || c.role.kind === 'metadata';
          const error = errors[name];
          return (
            <tr key={name} data-column={name}>
              <th scope="row">{name}</th>
              <td>
                <select
                  className="sch-input"
                  aria-label={`${t('editor.mapsTo')} ${name}`}
                  value={roleValue(c.role)}
                  onChange={(e) => onChange(name, { role: parseRoleValue(e.target.value) })}
                >
                  <option value="field:no mapping">{t('editor.roles.noMapping')}</option>
                  <option value="field:text">{t('editor.roles.text')}</option>
                  <option value="field:image">{t('editor.roles.image')}</option>
                  <option value="field:chat">{t('editor.roles.chat')}</option>
                  <option value="metadata:terms">{t('editor.roles.terms')}</option>
                  {(c.column.kind === 'integer' || c.column.kind === 'float') && (
                    <>
                      <option value="metadata:integer">{t('editor.roles.integer')}</option>
                      <option value="metadata:float">{t('editor.roles.float')}</option>
                    </>
                  )}
                  {config.questions.map((q) => (
                    <option key={q.key} value={`suggestion:${q.key}`}>{t('editor.roles.suggestion', { question: q.name || q.key })}</option>
                  ))}
                </select>
              </td>
              <td>
                {hasTitle && (
                  <>
                    <input
                      className="sch-input"
                      aria-label={`${t('editor.title')} ${name}`}
                      value={c.title}
                      aria-invalid={Boolean(error)}
                      onChange={(e) => onChange(name, { title: e.target.value })}
                    />
                    {error && <span className="mfe-hub-import__error" role="alert">{t(`validation.${error}`)}</span>}
                  </>
                )}
              </td>
              <td>
                {isField && (
                  <input
                    type="checkbox"
                    aria-label={`${t('editor.required')} ${name}`}
                    checked={c.required}
                    onChange={(e) => onChange(name, { required: e.target.checked })}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
