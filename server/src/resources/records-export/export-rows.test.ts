import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../storage/repositories/records.repository.js';
import { exportColumns, exportLayout, exportRows } from './export-rows.js';

const record = (fields: Record<string, unknown>): StoredRecord => ({
  rid: 1, id: 'r1', dataset_id: 'd1', external_id: 'e1', fields: JSON.stringify(fields), metadata: null,
  status: 'pending', submitted_count: 0, inserted_at: '2026-01-01T00:00:00.000000', updated_at: '2026-01-01T00:00:00.000000',
});

describe('export columns', () => {
  it('gives a field named like another column a `field.` prefix, so no value is lost', () => {
    const layout = exportLayout({ fields: ['id', 'status', 'text', 'label.validated'], metadata: [], questions: [{ id: 'q1', name: 'label' }] });
    const columns = exportColumns(layout);
    expect(columns.slice(0, 7)).toEqual(['id', 'external_id', 'status', 'field.id', 'field.status', 'text', 'field.label.validated']);
    expect(new Set(columns).size).toBe(columns.length);

    const [row] = exportRows(layout, {
      records: [record({ id: 'field id', status: 'field status', text: 'hello', 'label.validated': 'field value' })],
      responses: [], suggestions: [], validations: [],
    });
    expect(row).toMatchObject({
      id: 'r1', status: 'pending', 'field.id': 'field id', 'field.status': 'field status', text: 'hello',
      'field.label.validated': 'field value', 'label.validated': null,
    });
  });
});
