import DOMPurify from 'dompurify';
import { Marked, Renderer, type Tokens } from 'marked';
import { useMemo, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './markdown.css';

/** Rendered HTML by source: a record's fields are re-rendered on every answer, parse them once. */
const cache = new Map<string, string>();
const CACHE_SIZE = 200;

/**
 * Record content may not restyle the page: without `style` a record cannot cover the answer
 * buttons or fake the app's own controls.
 */
const PURIFY_OPTIONS = { USE_PROFILES: { html: true }, FORBID_TAGS: ['style'], FORBID_ATTR: ['style'] };

/** Blocks that take their direction from their own text: a Hebrew paragraph reads right to left. */
const DIRECTED_BLOCKS = new Set(['P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'TD', 'TH', 'DT', 'DD', 'FIGCAPTION']);

/**
 * A DOMPurify of its own (its hooks stay off other users of the library): every text block gets
 * `dir="auto"`, an image without `alt` an empty one, and links open in a new tab without handing it this page (record text links
 * anywhere; following one must not drop the annotator's screen).
 */
const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (DIRECTED_BLOCKS.has(node.nodeName)) node.setAttribute('dir', 'auto');
  // An image of record HTML with no text alternative: decorative rather than its address read out.
  if (node.nodeName === 'IMG' && !node.hasAttribute('alt')) node.setAttribute('alt', '');
  if (node.nodeName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const escapeHtml = (value: string) => value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Code blocks in a box that scrolls sideways (never clipped) with a copy button (spec: code in
 * rendered Markdown can be copied); tables in a box that scrolls, so a wide one never widens the page.
 */
function markedWithCopy(copyLabel: string): Marked {
  const base = new Renderer();
  return new Marked({
    gfm: true,
    breaks: true,
    renderer: {
      code(token: Tokens.Code) {
        const block = base.code.call(this, token);
        return `<div class="sch-code-block sch-markdown__code">${block}<button type="button" class="sch-button sch-button--ghost sch-copy-button" data-copy-code>${escapeHtml(copyLabel)}</button></div>`;
      },
      table(token: Tokens.Table) {
        return `<div class="sch-markdown__table">${base.table.call(this, token)}</div>`;
      },
    },
  });
}

const renderers = new Map<string, Marked>();

/** Markdown → sanitised HTML: no script, handler, style or javascript: URL survives (spec: text fields). */
export function renderMarkdown(source: string, copyLabel = 'Copy code'): string {
  const key = `${copyLabel}\u0000${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let marked = renderers.get(copyLabel);
  if (!marked) renderers.set(copyLabel, (marked = markedWithCopy(copyLabel)));
  const html = purify.sanitize(marked.parse(source, { async: false }), PURIFY_OPTIONS);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, html);
  return html;
}

/** How long "Copied" shows on a copy button. */
const COPIED_MS = 1000;

/**
 * Rendered Markdown (guidelines, record fields, the settings' preview), each code block with its
 * copy button.
 */
export function MarkdownHtml({ source, className, testId }: { source: string; className?: string; testId?: string }) {
  const { t } = useTranslation();
  const copyLabel = t('common.copyCode');
  const html = useMemo(() => renderMarkdown(source, copyLabel), [source, copyLabel]);
  // One listener for every copy button of the text: the buttons are part of the rendered HTML.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const button = (event.target as Element).closest?.('[data-copy-code]');
    const code = button?.parentElement?.querySelector('pre')?.textContent;
    if (!button || code === undefined) return;
    void navigator.clipboard?.writeText(code).then(() => {
      button.textContent = t('common.copied');
      setTimeout(() => { button.textContent = copyLabel; }, COPIED_MS);
    }, () => undefined);
  };
  return <div className={`sch-markdown ${className ?? ''}`} dir="auto" data-testid={testId} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
