/** The Argilla server version this API is compatible with; the SDK checks it. */
export const SERVER_VERSION = '2.8.0';
