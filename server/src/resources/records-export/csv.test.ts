import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';
import { parseCsv } from '../../../test/csv-reader.js';

describe('csvCell', () => {
  it('leaves plain text alone and quotes commas, quotes and line breaks', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
    expect(csvCell('a,"b"\nc')).toBe('"a,""b""\nc"');
  });

  it('writes empty cells for null and undefined, JSON for everything else', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(4)).toBe('4');
    expect(csvCell(0.25)).toBe('0.25');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(['x', 'y'])).toBe('"[""x"",""y""]"');
    expect(csvCell([1, 2])).toBe('"[1,2]"');
  });
});

describe('csvRow', () => {
  it('ends with CRLF and reads back cell for cell', () => {
    const cells = ['a,"b"\nc', '', 'ünïcödé', '"', ',', '\r\n', 'x'];
    const text = csvRow(cells) + csvRow(['second', 'row']);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([cells, ['second', 'row']]);
  });
});
