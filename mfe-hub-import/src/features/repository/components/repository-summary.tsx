import { useTranslation } from 'react-i18next';

export const HUB_URL = 'https://huggingface.co';

/** The repository the user asked to import; the mapping wizard builds on this. */
export function RepositorySummary({ repoId }: { repoId?: string }) {
  const { t } = useTranslation();
  if (!repoId) return <p>{t('hubImport.noRepository')}</p>;
  return (
    <section className="sch-card mfe-hub-import">
      <h1>{t('hubImport.title')}</h1>
      <p>
        {t('hubImport.repository')}: <strong data-testid="hub-repo-id">{repoId}</strong>
      </p>
      <p className="sch-muted">{t('hubImport.nextStep')}</p>
      <a href={`${HUB_URL}/datasets/${repoId}`} target="_blank" rel="noreferrer">{t('hubImport.openOnHub')}</a>
    </section>
  );
}
