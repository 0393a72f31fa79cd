import { OAuthCallback } from '../features/oauth/components/oauth-callback.js';
import { SignInForm } from '../features/sign-in/components/sign-in-form.js';
import { WelcomeHfSignIn } from '../features/welcome/components/welcome-hf-sign-in.js';
import './mfe-auth.css';

export interface AppProps {
  screen?: 'sign-in' | 'welcome-hf-sign-in' | 'oauth-callback';
  provider?: string;
}

/** The auth remote: the shell picks the screen per route. */
export function App({ screen = 'sign-in', provider }: AppProps) {
  return (
    <div className="mfe-auth">
      {screen === 'welcome-hf-sign-in' && <WelcomeHfSignIn />}
      {screen === 'oauth-callback' && <OAuthCallback provider={provider} />}
      {screen === 'sign-in' && <SignInForm />}
    </div>
  );
}
