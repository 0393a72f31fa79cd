import { useCallback, useEffect, useState } from 'react';
import type { BulkView } from './bulk-view.js';

type BulkViewComponent = typeof BulkView;

const loadBulkView = () => import('./bulk-view.js').then((module) => module.BulkView);

/**
 * Bulk mode (with its virtual list) loads when first chosen: its chunk is asked for with the
 * dataset's settings. Not through React.lazy, whose content React reveals no sooner than 300 ms
 * after its fallback (a page load into bulk mode took 500-1,000 ms that way, 400-500 ms this way).
 */
export function useBulkView(wanted: boolean, load: () => Promise<BulkViewComponent> = loadBulkView): { View: BulkViewComponent | undefined; failed: boolean; retry: () => void } {
  const [View, setView] = useState<BulkViewComponent>();
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!wanted || View) return;
    let live = true;
    setFailed(false);
    load().then(
      (component) => live && setView(() => component),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [wanted, View, attempt, load]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { View, failed, retry };
}
