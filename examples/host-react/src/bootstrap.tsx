import { createRoot } from 'react-dom/client';
import { Portal } from './portal.js';
import { readSession } from './session.js';

const root = createRoot(document.getElementById('root')!);
readSession().then(
  (session) => root.render(<Portal session={session} />),
  (error: unknown) => root.render(<p role="alert">Could not sign in to the labelling service: {String(error)}</p>),
);
