import { DatasetList } from '../features/datasets/components/dataset-list.js';
import { ImportFromHub } from '../features/import-hub/components/import-from-hub.js';
import { ImportFromPython } from '../features/import-python/components/import-from-python.js';
import { ExamplesAndGuides } from '../features/resources/components/examples-and-guides.js';
import './mfe-home.css';

/** Home: page-content (datasets) and page-sidebar (ways to add data). */
export function App() {
  return (
    <div className="mfe-home">
      <div className="mfe-home__content"><DatasetList /></div>
      <aside className="mfe-home__sidebar">
        <ImportFromHub />
        <ImportFromPython />
        <ExamplesAndGuides />
      </aside>
    </div>
  );
}
