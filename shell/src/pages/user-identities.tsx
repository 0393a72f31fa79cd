import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { identitiesQuery, linkIdentity, unlinkIdentity, usersQuery, type User, type UserIdentity } from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';

const PROVIDER = 'huggingface';

/**
 * Owners: every user and the Hugging Face user it is linked to, with Link and Unlink. A Hugging
 * Face sign-in opens the linked account only, so this is how a local account gets one.
 */
export function UserIdentities() {
  const { t } = useTranslation();
  const users = useQuery(usersQuery());
  const identities = useQuery(identitiesQuery());
  const subjectOf = new Map((identities.data?.items ?? []).filter((i) => i.provider === PROVIDER).map((i) => [i.user_id, i.subject]));

  return (
    <section aria-labelledby="user-identities-title">
      <h2 id="user-identities-title">{t('userSettings.users.title')}</h2>
      <p>{t('userSettings.users.intro')}</p>
      {users.data && identities.data && (
        <table className="sch-user-identities">
          <thead>
            <tr>
              <th scope="col">{t('userSettings.username')}</th>
              <th scope="col">{t('userSettings.role')}</th>
              <th scope="col">{t('userSettings.users.huggingface')}</th>
            </tr>
          </thead>
          <tbody>
            {users.data.items.map((user) => (
              <tr key={user.id}>
                <th scope="row">{user.username}</th>
                <td>{t(`userSettings.roles.${user.role}`)}</td>
                <td>
                  <IdentityControl user={user} subject={subjectOf.get(user.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function IdentityControl({ user, subject }: { user: Pick<User, 'id' | 'username'>; subject?: string }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);

  async function run(change: () => Promise<UserIdentity>, done: string) {
    setBusy(true);
    try {
      await change();
      setDraft('');
      notify({ message: done, type: 'success' });
    } catch {
      // The global handler showed the error toast (a subject linked elsewhere is a 409 naming that user).
    }
    setBusy(false);
  }

  if (subject) {
    return (
      <span className="sch-user-identities__linked">
        <code>{subject}</code>
        <button
          type="button"
          className="sch-button sch-button--ghost"
          aria-label={t('userSettings.users.unlinkLabel', { username: user.username })}
          disabled={busy}
          onClick={() => void run(() => unlinkIdentity(user.id, PROVIDER), t('userSettings.users.unlinked', { username: user.username }))}
        >
          {t('userSettings.users.unlink')}
        </button>
      </span>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim();
    if (value) void run(() => linkIdentity(user.id, PROVIDER, value), t('userSettings.users.linked', { username: user.username }));
  };
  return (
    <form className="sch-user-identities__link" onSubmit={onSubmit}>
      <input
        aria-label={t('userSettings.users.subjectLabel', { username: user.username })}
        value={draft}
        placeholder={t('userSettings.users.notLinked')}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button type="submit" className="sch-button" disabled={busy || !draft.trim()}>
        {t('userSettings.users.link')}
      </button>
    </form>
  );
}
