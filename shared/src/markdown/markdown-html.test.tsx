import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RemoteProviders } from '../ui/remote-providers.js';
import { MarkdownHtml, renderMarkdown } from './markdown-html.js';

describe('renderMarkdown', () => {
  afterEach(cleanup);

  it('keeps formatting and links', () => {
    const html = renderMarkdown('**bold** [docs](https://example.org)');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('href="https://example.org"');
  });

  it('gives every text block its own direction and opens links in a new tab without an opener', () => {
    const html = renderMarkdown('שלום עולם\n\n- عنصر\n\n> quote [site](https://example.org)');
    expect(html).toContain('<p dir="auto">שלום עולם</p>');
    expect(html).toContain('<li dir="auto">عنصر</li>');
    expect(html).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">site</a>');
    render(<RemoteProviders><MarkdownHtml source="مرحبا" testId="md" /></RemoteProviders>);
    expect(screen.getByTestId('md').getAttribute('dir')).toBe('auto');
  });

  it('drops scripts, handlers, javascript: URLs and styles from record content', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a>' +
        '<div style="position:fixed;inset:0">cover</div><style>body{display:none}</style>',
    );
    expect(html).not.toMatch(/<script|onerror|javascript:|style/i);
    expect(html).toContain('cover');
  });

  it('puts code blocks in a scrolling box with a copy button, tables in a scrolling box, headings as headings', () => {
    const html = renderMarkdown('# Rules\n\n```python\nprint("<x>")\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |', 'Copiar código');
    expect(html).toContain('<h1 dir="auto">Rules</h1>');
    expect(html).toMatch(/<div class="sch-code-block sch-markdown__code"><pre><code class="language-python">print\("&lt;x&gt;"\)\n<\/code><\/pre>\n?<button type="button" class="sch-button sch-button--ghost sch-copy-button" data-copy-code="">Copiar código<\/button><\/div>/);
    expect(html).toMatch(/<div class="sch-markdown__table"><table>/);
  });

  it('copies the code of the block whose button is pressed', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<RemoteProviders><MarkdownHtml source={'```\nfirst\n```\n\n```\nsecond\n```'} /></RemoteProviders>);
    const buttons = screen.getAllByRole('button', { name: 'Copy code' });
    fireEvent.click(buttons[1]!);
    expect(writeText).toHaveBeenCalledWith('second\n');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBe(buttons[1]);
  });
});
