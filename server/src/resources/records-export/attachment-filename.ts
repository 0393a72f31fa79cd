/**
 * A file name safe inside `Content-Disposition: attachment; filename="…"` and on every disk:
 * ASCII letters, digits, `.`, `-` and `_` kept, any other run of characters one `_`.
 */
export function attachmentFilename(name: string, extension: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 200);
  return `${safe || 'records'}.${extension}`;
}
