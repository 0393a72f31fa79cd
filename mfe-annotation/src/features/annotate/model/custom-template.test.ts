import { describe, expect, it } from 'vitest';
import { renderCustomTemplate } from './custom-template.js';
import type { AnnotationRecord } from './types.js';

const record = {
  id: 'r1', dataset_id: 'd', status: 'pending', inserted_at: '', updated_at: '',
  fields: {
    page: { title: 'Menu <b>', items: [{ name: 'Soup', price: 4 }, { name: 'Tea', price: 0 }], tags: { a: 'x', b: 'y' }, empty: [] },
  },
  metadata: { source: 'web' },
} as AnnotationRecord;
const render = (template: string) => renderCustomTemplate(template, record, 'page');

describe('custom field templates (Handlebars)', () => {
  it('fills values, escaped unless in triple braces, with the field shortcut and @root', () => {
    expect(render('<h1>{{record.fields.page.title}}</h1>')).toBe('<h1>Menu &lt;b&gt;</h1>');
    expect(render('{{{title}}} from {{record.metadata.source}} ({{@root.record.id}})')).toBe('Menu <b> from web (r1)');
    expect(render('{{missing.deep}}|{{record.fields.page.tags}}')).toBe('|{&quot;a&quot;:&quot;x&quot;,&quot;b&quot;:&quot;y&quot;}');
  });

  it('runs #each over lists and objects with @index, @key, @first, @last, ../ and block parameters', () => {
    expect(render('{{#each items}}{{@index}}:{{name}}={{price}}{{#unless @last}}, {{/unless}}{{/each}}')).toBe('0:Soup=4, 1:Tea=0');
    expect(render('{{#each tags}}[{{@key}}={{this}}{{#if @first}}*{{/if}}]{{/each}}')).toBe('[a=x*][b=y]');
    expect(render('{{#each items as |item i|}}{{i}}.{{item.name}} of {{../title}};{{/each}}')).toBe('0.Soup of Menu &lt;b&gt;;1.Tea of Menu &lt;b&gt;;');
    expect(render('{{#each empty}}x{{else}}none{{/each}}')).toBe('none');
  });

  it('runs #if, #unless, else-if chains, #with, lookup and json', () => {
    expect(render('{{#if record.metadata.source}}yes{{else}}no{{/if}}')).toBe('yes');
    expect(render('{{#each items}}{{#if price}}paid{{else if name}}free{{/if}} {{/each}}')).toBe('paid free ');
    expect(render('{{#if 0 includeZero=true}}zero counts{{/if}}')).toBe('zero counts');
    expect(render('{{#with record.metadata}}{{source}}{{/with}}')).toBe('web');
    expect(render('{{lookup tags "b"}} {{lookup items 1}}')).toBe('y {&quot;name&quot;:&quot;Tea&quot;,&quot;price&quot;:0}');
    expect(render('{{{json record.metadata}}}')).toBe('{"source":"web"}');
  });

  it('drops comments and standalone block lines, as Handlebars does', () => {
    expect(render('<ul>\n  {{#each items}}\n  <li>{{name}}</li>\n  {{/each}}\n</ul>{{!-- note --}}')).toBe('<ul>\n  <li>Soup</li>\n  <li>Tea</li>\n</ul>');
  });

  it('throws on a template that does not parse', () => {
    expect(() => render('{{#each items}}unclosed')).toThrow();
  });
});
