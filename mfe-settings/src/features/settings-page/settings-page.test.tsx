import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { bus } from '@scholia/shared/bus';
import { initI18n } from '@scholia/shared/i18n';
import { ANNOTATOR_USER, fakeApi, makeDataset, makeQuestion, OWNER_USER } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import { de } from '../../i18n/de.js';
import { en } from '../../i18n/en.js';
import { es } from '../../i18n/es.js';
import { SettingsPage } from './settings-page.js';

const COMMON = {
  'GET v1/datasets/d1': makeDataset(),
  'GET v1/workspaces/w1': { id: 'w1', name: 'team' },
  'GET v1/datasets/d1/fields': { items: [] },
  'GET v1/datasets/d1/questions': { items: [makeQuestion()] },
  'GET v1/me/datasets/d1/metadata-properties': { items: [] },
  'GET v1/datasets/d1/vectors-settings': { items: [] },
  'GET v1/me/datasets/d1/metrics': { responses: { total: 4, submitted: 1, discarded: 0, draft: 0, pending: 3 } },
};

describe('Settings page', () => {
  afterEach(async () => {
    cleanup();
    await initI18n().changeLanguage('en');
  });

  it('gives annotators the reduced view: dataset info and guidelines, loading only the dataset', async () => {
    const api = fakeApi({ ...COMMON, 'GET v1/me': ANNOTATOR_USER });
    renderRemote(<SettingsPage datasetId="d1" />);
    expect(await screen.findByTestId('settings-reduced')).toBeTruthy();
    expect(await screen.findByText('team')).toBeTruthy();
    expect(screen.getByTestId('settings-guidelines').textContent?.trim()).toBe('Be kind');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(api.calls.map((c) => c.path).sort()).toEqual(['v1/datasets/d1', 'v1/me', 'v1/workspaces/w1']);
  });

  it('gives owners every section, and refreshes progress and metrics when the bus asks', async () => {
    let total = 4;
    let submitted = 1;
    const api = fakeApi({
      ...COMMON,
      'GET v1/me': OWNER_USER,
      'GET v1/datasets/d1/progress': () => ({ total, completed: 1, pending: total - 1, users: [] }),
      'GET v1/me/datasets/d1/metrics': () => ({ responses: { total: 4, submitted, discarded: 0, draft: 0, pending: 4 - submitted } }),
    });
    renderRemote(<SettingsPage datasetId="d1" />);
    expect(await screen.findByTestId('settings-full')).toBeTruthy();
    for (const name of ['Dataset info', 'Progress', 'See your dataset', 'Edit fields', 'Edit questions', 'Edit metadata properties',
      'Edit vectors', 'Export to the Hugging Face Hub', 'Danger zone']) {
      expect(screen.getByRole('heading', { name, level: 2 })).toBeTruthy();
    }
    expect((await screen.findByTestId('settings-progress')).textContent).toContain('1 of 4 records completed (25.00%)');
    expect((await screen.findByTestId('settings-python-snippet')).textContent).toContain('client.datasets(name="reviews", workspace="team")');
    total = 8;
    bus.emit('progress:refresh-requested', { datasetId: 'd1' });
    expect(await screen.findByText(/1 of 8 records completed/)).toBeTruthy();
    expect(screen.getByTestId('settings-metrics').textContent).toContain('Submitted: 1 ·');
    submitted = 3;
    bus.emit('metrics:refresh-requested', { datasetId: 'd1' });
    await waitFor(() => expect(screen.getByTestId('settings-metrics').textContent).toContain('Submitted: 3 ·'));
    expect(api.writes()).toEqual([]);
  });

  it('speaks German and Spanish', async () => {
    fakeApi({ ...COMMON, 'GET v1/me': ANNOTATOR_USER });
    renderRemote(<SettingsPage datasetId="d1" />, 'de');
    expect(await screen.findByRole('heading', { name: 'Datensatz-Einstellungen' })).toBeTruthy();
    await initI18n().changeLanguage('es');
    expect(await screen.findByRole('heading', { name: 'Ajustes del conjunto de datos' })).toBeTruthy();
  });

  it('translates every string: German and Spanish have the same keys as English and differ from it', () => {
    const leaves = (value: object, prefix = ''): [string, string][] => Object.entries(value).flatMap(([k, v]) =>
      typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v as object, `${prefix}${k}.`));
    const english = new Map(leaves(en));
    for (const bundle of [de, es]) {
      const translated = new Map(leaves(bundle));
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
      // Only names that are the same word in every language may stay identical.
      const same = [...translated].filter(([k, v]) => v === english.get(k)).map(([k]) => k);
      expect(same.every((k) => /(^|\.)(name|status|text|fieldTitle|type)$|types\.(text|label_selection)$|^questions\.types/.test(k)), same.join()).toBe(true);
    }
  });
});
