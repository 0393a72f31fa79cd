import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export interface Crumb {
  label: string;
  /** Omitted on the current page. */
  to?: string;
}

/**
 * The trail of pages above this one, on one line: a long name (a dataset's) is cut with an
 * ellipsis, whole in its tooltip and for screen readers (the cut is only drawn).
 */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('nav.breadcrumbs')} className="sch-breadcrumbs">
      <ol>
        {items.map((item, index) => (
          <li key={`${index}-${item.label}`}>
            {item.to ? <Link to={item.to} title={item.label}>{item.label}</Link> : <span aria-current="page" title={item.label}>{item.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
