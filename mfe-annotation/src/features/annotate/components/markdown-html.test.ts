import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown-html.js';

describe('renderMarkdown', () => {
  it('keeps formatting and links', () => {
    const html = renderMarkdown('**bold** [docs](https://example.org)');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('href="https://example.org"');
  });

  it('drops scripts, handlers, javascript: URLs and styles from record content', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a>' +
        '<div style="position:fixed;inset:0">cover</div><style>body{display:none}</style>',
    );
    expect(html).not.toMatch(/<script|onerror|javascript:|style/i);
    expect(html).toContain('cover');
  });
});
