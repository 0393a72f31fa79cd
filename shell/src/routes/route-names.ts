/** Route names of spec §2; the guard's rules are written against these. */
export type RouteName =
  | 'home' | 'sign-in' | 'welcome-hf-sign-in' | 'user-settings' | 'new-dataset' | 'annotation-mode'
  | 'dataset-settings' | 'oauth-provider-callback' | 'hub-import';

/** Routes an anonymous visitor may see. */
export const PUBLIC_ROUTES: readonly RouteName[] = ['sign-in', 'oauth-provider-callback', 'welcome-hf-sign-in'];

export const SIGN_IN_PATH = '/sign-in';
export const WELCOME_PATH = '/welcome-hf-sign-in';
export const HOME_PATH = '/';
