import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useCurrentUser } from '../../datasets/api/get-current-user.js';
import { useHomeTranslation } from '../../../i18n/home-translation.js';

/** Paste a hub repository id; the import screen lives at `/<encoded id>` (spec §2). */
export function importPathFor(repoId: string): string {
  return `/${encodeURIComponent(repoId.trim())}`;
}

/** Only admins and owners may create datasets: annotators never see the hub import. */
export function ImportFromHub() {
  const { t } = useHomeTranslation();
  const navigate = useNavigate();
  const [repoId, setRepoId] = useState('');
  const role = useCurrentUser().data?.role;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (repoId.trim()) void navigate(importPathFor(repoId));
  };
  if (role !== 'admin' && role !== 'owner') return null;
  return (
    <section className="sch-card mfe-home__block" data-testid="import-from-hub">
      <h2>{t('home.importHubTitle')}</h2>
      <p className="sch-muted">{t('home.importHubText')}</p>
      <form onSubmit={onSubmit} className="mfe-home__hub-form">
        <input aria-label={t('home.repoIdLabel')} placeholder="stanfordnlp/imdb" value={repoId}
          onChange={(event) => setRepoId(event.target.value)} />
        <button type="submit" className="sch-button" disabled={!repoId.trim()}>{t('home.importHubButton')}</button>
      </form>
    </section>
  );
}
