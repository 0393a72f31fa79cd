import { createRoot } from 'react-dom/client';
import { Portal } from './portal.js';
import { readSession } from './session.js';
import { TwoAnnotators } from './two-annotators.js';

const root = createRoot(document.getElementById('root')!);
const page = location.pathname === '/two-annotators.html'
  ? Promise.all([readSession('first'), readSession('second')]).then(([first, second]) => <TwoAnnotators first={first} second={second} />)
  : readSession().then((session) => <Portal session={session} />);
page.then(
  (content) => root.render(content),
  (error: unknown) => root.render(<p role="alert">Could not sign in to the labelling service: {String(error)}</p>),
);
