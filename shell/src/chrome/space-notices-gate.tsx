import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { environmentQuery, isHubSpace } from '@scholia/shared/api';

/** The notices' code loads on a Hugging Face Space only, the one place they show. */
const SpaceNoticesPanel = lazy(() => import('./space-notices.js').then((m) => ({ default: m.SpaceNotices })));

export function SpaceNoticesGate() {
  const { data: settings } = useQuery({ ...environmentQuery(), retry: false });
  if (!isHubSpace(settings)) return null;
  return <Suspense fallback={null}><SpaceNoticesPanel /></Suspense>;
}
