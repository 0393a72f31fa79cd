// Component tests render parts of the remote inside the shared RemoteProviders, that is with the
// page's i18next; the remote itself brings its own instance (AnnotationEmbedRoot). Give the page's
// instance the remote's strings too, so those tests read the real text.
import { i18next, initI18n } from '@scholia/shared/i18n';
import { ANNOTATION_NAMESPACE } from './i18n/register-annotation-i18n.js';
import { de } from './i18n/de.js';
import { en } from './i18n/en.js';
import { es } from './i18n/es.js';

initI18n('en');
for (const [language, bundle] of Object.entries({ en, de, es })) i18next.addResourceBundle(language, ANNOTATION_NAMESPACE, bundle, true, true);
