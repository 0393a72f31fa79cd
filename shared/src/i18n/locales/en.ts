/** English strings: the source of truth for keys; de and es must match its shape. */
export const en = {
  common: {
    appName: 'Scholia',
    loading: 'Loading…',
    retry: 'Retry',
    close: 'Close',
    copy: 'Copy',
    copied: 'Copied',
    copyCode: 'Copy code',
    cancel: 'Cancel',
    backToHome: 'Back to home page',
    loadFailed: 'This could not be loaded.',
  },
  http: {
    '401': 'Could not validate credentials',
    '404': 'Could not find the requested resource',
    '429': 'Please wait a few seconds before trying again',
    '500': 'An error occurred, please try again later',
  },
  business: {
    missing_vector: 'Vector not found for the selected record',
    update_distribution_with_existing_responses:
      "Distribution settings can't be modified for a dataset containing user responses",
  },
  errors: {
    valueRefused: 'A value was not accepted ({{where}}). Check it and try again.',
    requestRefused: 'The server refused the request (HTTP {{status}}).',
    title: 'Something went wrong.',
    notFoundText: "We can't seem to find the page you are looking for",
    pageNotFound: 'This page could not be found',
    unknownMiddleware: 'Unknown middleware',
    unknown: 'Unknown error',
    fallback: 'The error page itself failed. You can still go back to the home page.',
    remoteFailed: 'This part of the page could not be loaded ({{remote}}).',
    remoteFailedHint: 'The rest of the app still works. Check your connection and try again.',
    datasetNotFound: 'This dataset does not exist, or it was deleted.',
    datasetForbidden: 'You have no access to this dataset. Ask an owner or admin to add you to its workspace.',
    serverUnreachable: 'The server could not be reached. Check your connection and try again.',
  },
  network: {
    offline: 'You are offline',
    online: 'You are online again',
  },
  nav: {
    home: 'Home',
    settings: 'settings',
    mySettings: 'My settings',
    viewDocs: 'View docs',
    logOut: 'Log out',
    userMenu: 'User menu',
    logo: '{{app}} home page',
    userMenuUnavailable: 'The menu could not be loaded: you seem to be offline. Try again once you are back online.',
    breadcrumbs: 'Breadcrumbs',
  },
  theme: {
    label: 'Theme',
    system: 'System',
    light: 'Light',
    dark: 'Dark',
    'high-contrast': 'High contrast',
  },
  language: {
    label: 'Language',
    en: 'English',
    de: 'Deutsch',
    es: 'Español',
  },
  auth: {
    claim: 'Label the records of your datasets, together.',
    signInTitle: 'Sign in',
    username: 'Username',
    password: 'Password',
    signIn: 'Sign in',
    signingIn: 'Signing in…',
    wrongCredentials: 'Wrong username or password. Try again',
    signInWith: 'Sign in with {{provider}}',
    or: 'or',
    welcomeTitle: 'Welcome to Scholia',
    welcomeText: 'This space runs on the hub. Sign in with your hub account to start labelling.',
    signInWithUsername: 'Sign in with username and password',
    oauthWorking: 'Completing sign-in…',
    oauthFailed: 'The sign-in could not be completed.',
    backToSignIn: 'Back to sign-in',
  },
  space: {
    storageWarningAdmin:
      'Persistent storage is not enabled for this space: every dataset and annotation is lost when the space restarts. Enable persistent storage in the space settings before you start.',
    storageWarningAnnotator:
      'Persistent storage is not enabled for this space: your annotations may be lost when the space restarts. Ask the owner of the space to enable it.',
    shareTitle: 'Share your progress',
    shareText: 'Tell others about this space and invite them to help label.',
    shareLink: 'Open the space on the hub',
  },
  userSettings: {
    title: 'My settings',
    username: 'Username',
    name: 'Name',
    role: 'Role',
    apiKey: 'API key',
    rotateApiKey: 'Create a new key',
    rotateApiKeyWarning: 'The current key stops working at once, in every script and client that uses it, and you are signed out everywhere else.',
    rotateApiKeyConfirm: 'Replace my key',
    rotateApiKeyDone: 'Your new API key is ready. Update your scripts with it.',
    preferences: 'Preferences',
    roles: { owner: 'Owner', admin: 'Admin', annotator: 'Annotator' },
  },
} as const;

/** Shape every other language must have: same keys, any strings. */
export type Messages = Widen<typeof en>;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
