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

  it("prefixes ' to text a spreadsheet would run as a formula, and leaves numbers alone", () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =1')).toBe(' =1');
    expect(csvCell(-2.5)).toBe('-2.5');
  });
});

describe('csvRow', () => {
  it('ends with CRLF and reads back cell for cell', () => {
    const cells = ['a,"b"\nc', '', 'ünïcödé', '"', ',', 'line\r\nbreak', 'x'];
    const text = csvRow(cells) + csvRow(['second', 'row']);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([cells, ['second', 'row']]);
  });
});
