import { Link } from 'react-router-dom';
import { importPathFor } from '../../import-hub/components/import-from-hub.js';
import { useCurrentUser } from '../../datasets/api/get-current-user.js';
import { useHomeTranslation } from '../../../i18n/home-translation.js';

/** Public hub datasets that import cleanly: one text column and a label each. */
export const EXAMPLE_DATASETS = ['stanfordnlp/imdb', 'fancyzhx/ag_news', 'dair-ai/emotion'] as const;

const GUIDES = [
  { key: 'home.guideQuickstart', href: 'https://docs.argilla.io/latest/getting_started/quickstart/' },
  { key: 'home.guideAnnotate', href: 'https://docs.argilla.io/latest/how_to_guides/annotate/' },
  { key: 'home.guideDistribution', href: 'https://docs.argilla.io/latest/how_to_guides/distribution/' },
] as const;

export const DEMO_URL = 'https://huggingface.co/spaces/argilla/argilla-template-space';

export function ExamplesAndGuides() {
  const { t } = useHomeTranslation();
  const role = useCurrentUser().data?.role;
  return (
    <>
      {/* The examples lead to a hub import, which only owners and admins may start. */}
      {(role === 'owner' || role === 'admin') && (
        <section className="sch-card mfe-home__block" data-testid="hub-examples">
          <h2>{t('home.examplesTitle')}</h2>
          <ul>
            {EXAMPLE_DATASETS.map((repoId) => <li key={repoId}><Link to={importPathFor(repoId)}>{repoId}</Link></li>)}
          </ul>
        </section>
      )}
      <section className="sch-card mfe-home__block">
        <h2>{t('home.guidesTitle')}</h2>
        <ul>
          {GUIDES.map((guide) => (
            <li key={guide.key}><a href={guide.href} target="_blank" rel="noreferrer">{t(guide.key)}</a></li>
          ))}
        </ul>
      </section>
      <section className="sch-card mfe-home__block">
        <h2>{t('home.demoTitle')}</h2>
        <a href={DEMO_URL} target="_blank" rel="noreferrer">{t('home.demoLink')}</a>
      </section>
    </>
  );
}
