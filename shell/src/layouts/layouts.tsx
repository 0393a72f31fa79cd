import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumbs, type Crumb } from '@scholia/shared/ui';
import { AppHeader, Logo } from '../chrome/app-header.js';
import { SpaceNoticesGate } from '../chrome/space-notices-gate.js';

/** Layouts of spec §2. Each marks itself with data-layout for styling and tests. */

export function DefaultLayout({ children }: { children: ReactNode }) {
  return <div className="sch-layout" data-layout="default"><main className="sch-main">{children}</main></div>;
}

/** Claim and logo beside the form. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="sch-layout sch-layout--auth" data-layout="authentication">
      <aside className="sch-auth__claim">
        <Logo />
        <p>{t('auth.claim')}</p>
      </aside>
      <main className="sch-auth__form">{children}</main>
    </div>
  );
}

/** Header, page-content and page-sidebar; the home remote fills the last two. */
export function HomeLayout({ children }: { children: ReactNode }) {
  return (
    <div className="sch-layout" data-layout="home">
      <AppHeader />
      <SpaceNoticesGate />
      <main className="sch-main sch-main--home">{children}</main>
    </div>
  );
}

/** Header, page header (breadcrumbs) and content. */
export function InternalLayout({ crumbs, children }: { crumbs: Crumb[]; children: ReactNode }) {
  return (
    <div className="sch-layout" data-layout="internal">
      <AppHeader />
      <SpaceNoticesGate />
      <div className="sch-page-header"><Breadcrumbs items={crumbs} /></div>
      <main className="sch-main">{children}</main>
    </div>
  );
}

/** Header and a centre area for the record being annotated. */
export function AnnotationLayout({ crumbs, children }: { crumbs: Crumb[]; children: ReactNode }) {
  return (
    <div className="sch-layout" data-layout="annotation">
      <AppHeader><Breadcrumbs items={crumbs} /></AppHeader>
      <SpaceNoticesGate />
      <main className="sch-main sch-main--center">{children}</main>
    </div>
  );
}
