import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@scholia/shared/api';
import { ChangePassword } from './change-password.js';
import { RotateApiKey } from './rotate-api-key.js';
import { UserIdentities } from './user-identities.js';
import { changeLanguage, isLanguage, LANGUAGES } from '@scholia/shared/i18n';
import { isThemePreference, readThemePreference, setThemePreference, THEME_PREFERENCES } from '@scholia/shared/theme';
import { CopyButton, Select } from '@scholia/shared/ui';

/** My settings: who I am, my API key (and a new one), my password, theme and language (spec §1, §2); owners also see the users' sign-in links. */
export function UserSettingsPage() {
  const { t, i18n } = useTranslation();
  const { data: user } = useQuery(currentUserQuery());
  const [theme, setTheme] = useState(readThemePreference());

  return (
    <div className="sch-user-settings">
      <h1>{t('userSettings.title')}</h1>
      {user && (
        <dl className="sch-definition-list">
          <dt>{t('userSettings.username')}</dt>
          <dd data-testid="user-username">{user.username}</dd>
          <dt>{t('userSettings.name')}</dt>
          <dd>{[user.first_name, user.last_name].filter(Boolean).join(' ')}</dd>
          <dt>{t('userSettings.role')}</dt>
          <dd>{t(`userSettings.roles.${user.role}`)}</dd>
          <dt>{t('userSettings.apiKey')}</dt>
          <dd className="sch-api-key">
            <code data-testid="user-api-key">{user.api_key}</code>
            <CopyButton text={user.api_key} />
          </dd>
        </dl>
      )}
      {user && <RotateApiKey />}
      {user && <ChangePassword username={user.username} />}
      {user?.role === 'owner' && <UserIdentities />}
      <h2>{t('userSettings.preferences')}</h2>
      <div className="sch-preferences">
        <Select id="theme-select" label={t('theme.label')} value={theme} onChange={(event) => {
          const value = event.target.value;
          if (isThemePreference(value)) {
            setThemePreference(value);
            setTheme(value);
          }
        }}>
          {THEME_PREFERENCES.map((option) => <option key={option} value={option}>{t(`theme.${option}`)}</option>)}
        </Select>
        <Select id="language-select" label={t('language.label')} value={i18n.language} onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}>
          {LANGUAGES.map((option) => <option key={option} value={option} lang={option}>{t(`language.${option}`)}</option>)}
        </Select>
      </div>
    </div>
  );
}
