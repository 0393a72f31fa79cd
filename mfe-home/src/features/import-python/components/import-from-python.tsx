import { CodeBlock } from '@scholia/shared/ui';
import { useCurrentUser } from '../../datasets/api/get-current-user.js';
import { useMyWorkspaces } from '../../datasets/api/get-workspaces.js';
import { buildPythonSnippet } from '../python-snippet.js';
import { useHomeTranslation } from '../../../i18n/home-translation.js';

/**
 * Generated, copyable SDK snippet with the user's own API key. Annotators may not create
 * datasets or records, so the snippet would fail for them: they are told whom to ask (spec §1).
 */
export function ImportFromPython() {
  const { t } = useHomeTranslation();
  const user = useCurrentUser();
  const workspaces = useMyWorkspaces();
  if (!user.data) return null;
  if (user.data.role === 'annotator') {
    return (
      <section className="sch-card mfe-home__block" data-testid="python-snippet">
        <h2>{t('home.importPythonTitle')}</h2>
        <p className="sch-muted" role="note">{t('home.importPythonAnnotator')}</p>
      </section>
    );
  }
  const code = buildPythonSnippet({
    apiUrl: window.location.origin,
    apiKey: user.data.api_key,
    workspace: workspaces.data?.items[0]?.name,
  });
  return (
    <section className="sch-card mfe-home__block" data-testid="python-snippet">
      <h2>{t('home.importPythonTitle')}</h2>
      <p className="sch-muted">{t('home.importPythonText')}</p>
      <CodeBlock code={code} language="python" />
    </section>
  );
}
