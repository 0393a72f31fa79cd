import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';
import type { AnnotationRecord, Field } from '../model/types.js';
import { FieldView, toChatMessages } from './record-fields.js';

const field = (name: string, settings: Record<string, unknown>): Field => ({ id: name, name, title: name.toUpperCase(), required: false, settings, dataset_id: 'd' } as Field);
const record = (fields: Record<string, unknown>): AnnotationRecord => ({ id: 'r', dataset_id: 'd', fields, status: 'pending', inserted_at: '', updated_at: '' } as AnnotationRecord);

describe('record fields (spec §3)', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('a plain chat value becomes one user message; a list keeps its roles', () => {
    expect(toChatMessages('hello')).toEqual([{ role: 'user', content: 'hello' }]);
    expect(toChatMessages([{ role: 'assistant', content: 'hi' }, { content: 'no role' }])).toEqual([
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'no role' },
    ]);
    expect(toChatMessages(null)).toEqual([]);
  });

  it('renders chat messages with their roles', () => {
    render(<RemoteProviders><FieldView field={field('chat', { type: 'chat' })} record={record({ chat: [{ role: 'user', content: 'Q?' }, { role: 'assistant', content: 'A.' }] })} /></RemoteProviders>);
    const messages = screen.getByTestId('field-chat').querySelectorAll('li');
    expect([...messages].map((m) => [m.getAttribute('data-role'), m.textContent])).toEqual([['user', 'UserQ?'], ['assistant', 'AssistantA.']]);
  });

  it('lets every text take its own direction: a right-to-left record reads right to left', () => {
    const rtl = record({ text: 'مرحبا بالعالم', notes: 'שלום', chat: [{ role: 'user', content: 'سؤال' }] });
    render(<RemoteProviders>
      <FieldView field={field('text', { type: 'text' })} record={rtl} />
      <FieldView field={field('notes', { type: 'text', use_markdown: true })} record={rtl} />
      <FieldView field={field('chat', { type: 'chat' })} record={rtl} />
    </RemoteProviders>);
    expect(screen.getByText('مرحبا بالعالم').getAttribute('dir')).toBe('auto');
    expect(screen.getByTestId('field-notes').querySelector('.sch-markdown')?.getAttribute('dir')).toBe('auto');
    expect(screen.getByText('سؤال').getAttribute('dir')).toBe('auto');
  });

  it('an image that fails to load says so', () => {
    render(<RemoteProviders><FieldView field={field('image', { type: 'image' })} record={record({ image: 'http://127.0.0.1:9/x.png' })} /></RemoteProviders>);
    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByRole('alert').textContent).toBe('Could not load image');
  });

  it('renders a custom field with Handlebars blocks into its sandboxed frame, or says why the template cannot be read', async () => {
    const template = '<ul>{{#each record.fields.menu.items}}<li>{{this}}</li>{{/each}}</ul>';
    render(<RemoteProviders><FieldView field={field('menu', { type: 'custom', template })} record={record({ menu: { items: ['Soup', 'Tea'] } })} /></RemoteProviders>);
    const frame = await screen.findByTitle('menu');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<ul><li>Soup</li><li>Tea</li></ul>');
    cleanup();
    render(<RemoteProviders><FieldView field={field('menu', { type: 'custom', template: '{{#if x}}open' })} record={record({ menu: {} })} /></RemoteProviders>);
    expect((await screen.findByTestId('template-error')).textContent).toMatch(/^The template of this field could not be read: /);
  });

  it('keeps the stylesheet a custom template starts with', async () => {
    const template = '<style>.card{border:1px solid red}</style><div class="card">{{record.fields.card.name}}</div>';
    render(<RemoteProviders><FieldView field={field('card', { type: 'custom', template })} record={record({ card: { name: 'Espresso' } })} /></RemoteProviders>);
    const frame = await screen.findByTitle('card');
    expect(frame.getAttribute('srcdoc')).toContain('<style>.card{border:1px solid red}</style><div class="card">Espresso</div>');
  });

  it('paints a custom field\'s frame in the page\'s theme, and again when the theme changes', async () => {
    const html = document.documentElement;
    html.style.setProperty('--sch-surface', '#1e2126');
    html.style.setProperty('--sch-text', '#e8eaed');
    html.setAttribute('data-theme', 'dark');
    try {
      render(<RemoteProviders><FieldView field={field('card', { type: 'custom', template: '<b>x</b>' })} record={record({ card: {} })} /></RemoteProviders>);
      const frame = await screen.findByTitle('card');
      expect(frame.getAttribute('srcdoc')).toContain('color-scheme:dark;background:#1e2126;color:#e8eaed');
      html.style.setProperty('--sch-surface', '#ffffff');
      html.style.setProperty('--sch-text', '#1c1e21');
      html.setAttribute('data-theme', 'light');
      await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('color-scheme:light;background:#ffffff;color:#1c1e21'));
    } finally {
      html.removeAttribute('style');
      html.removeAttribute('data-theme');
    }
  });
});
