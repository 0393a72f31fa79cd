declare module '*.css';

/** What the shell was built against (scripts/build-web.mjs PLATFORM): compared with each remote's remote.json. */
declare const __SCHOLIA_PLATFORM__: { contract: string; shared: Record<string, string> } | undefined;
