import { parquetWriteBuffer } from 'hyparquet-writer';

/**
 * Seed datasets of the fake hub: rows in the dataset viewer's cell form (ClassLabel = index,
 * image = PNG bytes) plus their features, and parquet files made from them at startup.
 */
export interface FakeDataset {
  id: string;
  config: string;
  features: Record<string, unknown>;
  /** split → rows */
  splits: Record<string, Record<string, unknown>[]>;
  /** Rows per parquet file (several files per split exercise multi-file reads); 0 = no parquet export. */
  rowsPerFile: number;
  /** Also a public repo holding those parquet files, as `push_to_hub` leaves one (what `load_dataset` reads). */
  publicRepo?: boolean;
}

/** The organization whose public repos the argilla SDK's own Hub tests read. */
export const SEED_ORGANIZATION = 'argilla-internal-testing';

const LABELS = ['negative', 'positive', 'neutral'];
const TOPICS = ['news', 'sports', 'politics', 'tech'];
const WORDS = 'the quick brown fox jumps over lazy dogs while annotators label many records of data'.split(' ');

/** A tiny valid 1×1 PNG (red pixel). */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
/** JPEG magic bytes are enough for sniffing tests. */
export const JPEG_BYTES = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

const sentence = (i: number, n: number) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');

/**
 * The public repos of SEED_ORGANIZATION that the argilla SDK's integration tests import with
 * `settings="auto"`: a text column and a class label, no id column (record ids become `train_<row>`).
 * `labelled` false leaves every third row without a class (-1), which the SDK imports without a suggestion.
 */
function sdkTestRepo(name: string, columns: { text: string; label: string }, labelled: boolean): FakeDataset {
  const value = { dtype: 'string', _type: 'Value' };
  return {
    id: `${SEED_ORGANIZATION}/${name}`,
    config: 'default',
    features: { [columns.text]: value, [columns.label]: { names: ['positive', 'negative'], _type: 'ClassLabel' } },
    splits: {
      train: Array.from({ length: 12 }, (_, i) => ({
        [columns.text]: i === 0 ? 'Hello World, how are you?' : sentence(i, 4 + (i % 5)),
        [columns.label]: !labelled && i % 3 === 2 ? -1 : i % 2,
      })),
    },
    rowsPerFile: 1000,
    publicRepo: true,
  };
}

export function buildFakeDatasets(): FakeDataset[] {
  const value = (dtype: string) => ({ dtype, _type: 'Value' });
  const sentiment = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, i) => {
      const n = 5 + (i % 20);
      return { id: `${prefix}-${i}`, text: sentence(i, n), label: i % 7 === 6 ? -1 : i % 3, n_words: n, score: Math.round((i % 100) * 0.01 * 100) / 100 };
    });
  return [
    {
      id: 'scholia/sentiment',
      config: 'default',
      features: { id: value('string'), text: value('string'), label: { names: LABELS, _type: 'ClassLabel' }, n_words: value('int64'), score: value('float64') },
      splits: { train: sentiment(12_000, 'tr'), test: sentiment(60, 'te') },
      rowsPerFile: 7000,
    },
    {
      id: 'scholia/topics',
      config: 'default',
      features: { text: value('string'), labels: { feature: { names: TOPICS, _type: 'ClassLabel' }, _type: 'List' } },
      splits: { train: Array.from({ length: 40 }, (_, i) => ({ text: sentence(i, 8), labels: i % 5 === 4 ? [] : [i % 4, (i + 1) % 4] })) },
      rowsPerFile: 1000,
    },
    {
      id: 'scholia/chat',
      config: 'conversations',
      features: {
        messages: { feature: { role: value('string'), content: value('string') }, _type: 'List' },
        quality: value('int64'),
      },
      splits: {
        train: Array.from({ length: 30 }, (_, i) => ({
          messages: [
            { role: 'user', content: `question ${i}` },
            { role: 'assistant', content: `answer ${i}` },
          ],
          quality: (i % 5) + 1,
        })),
      },
      rowsPerFile: 1000,
    },
    {
      id: 'scholia/images',
      config: 'default',
      features: { image: { _type: 'Image' }, caption: value('string') },
      splits: {
        train: Array.from({ length: 12 }, (_, i) => ({
          image: { bytes: i % 2 === 0 ? PNG_BYTES : JPEG_BYTES, path: `img-${i}.${i % 2 === 0 ? 'png' : 'jpg'}` },
          caption: `picture ${i}`,
        })),
      },
      rowsPerFile: 1000,
    },
    {
      id: 'scholia/viewer-only',
      config: 'default',
      features: { text: value('string'), label: { names: LABELS, _type: 'ClassLabel' } },
      splits: { train: Array.from({ length: 250 }, (_, i) => ({ text: `row ${i}`, label: i % 3 })) },
      rowsPerFile: 0,
    },
    sdkTestRepo('test_import_from_hub_with_upper_case_columns', { text: 'Text', label: 'Label' }, true),
    sdkTestRepo('test_import_from_hub_with_unlabelled_classes', { text: 'Text', label: 'Label' }, false),
    sdkTestRepo('test_import_dataset_from_hub_with_automatic_settings_True', { text: 'text', label: 'label' }, true),
    sdkTestRepo('test_import_dataset_from_hub_with_automatic_settings_False', { text: 'text', label: 'label' }, true),
  ];
}

type SchemaElement = Record<string, unknown>;

function schemaOf(name: string, feature: unknown, out: SchemaElement[]): void {
  const f = feature as Record<string, unknown>;
  if (f._type === 'Value') {
    const dtype = String(f.dtype);
    if (dtype === 'string') out.push({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
    else if (dtype.startsWith('float')) out.push({ name, type: 'DOUBLE', repetition_type: 'OPTIONAL' });
    else out.push({ name, type: 'INT64', repetition_type: 'OPTIONAL' });
  } else if (f._type === 'ClassLabel') {
    out.push({ name, type: 'INT64', repetition_type: 'OPTIONAL' });
  } else if (f._type === 'Image') {
    out.push({ name, repetition_type: 'OPTIONAL', num_children: 2 });
    out.push({ name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' });
    out.push({ name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
  } else if (f._type === 'List') {
    out.push({ name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' });
    out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
    schemaOf('element', f.feature, out);
  } else {
    const children = Object.entries(f);
    out.push({ name, repetition_type: 'OPTIONAL', num_children: children.length });
    for (const [child, childFeature] of children) schemaOf(child, childFeature, out);
  }
}

function toParquet(value: unknown, feature: unknown): unknown {
  const f = feature as Record<string, unknown>;
  if (value === null || value === undefined) return null;
  if (f._type === 'ClassLabel' || (f._type === 'Value' && /int/.test(String(f.dtype)))) return BigInt(value as number);
  if (f._type === 'List') return (value as unknown[]).map((v) => toParquet(v, f.feature));
  if (f._type === 'Image') {
    const image = value as { bytes: Buffer; path: string };
    return { bytes: new Uint8Array(image.bytes), path: image.path };
  }
  if (f._type === undefined && typeof value === 'object') {
    return Object.fromEntries(Object.entries(f).map(([k, sub]) => [k, toParquet((value as Record<string, unknown>)[k], sub)]));
  }
  return value;
}

/** Parquet files of one split, as the viewer's parquet conversion would publish them. */
export function writeSplitParquet(dataset: FakeDataset, rows: Record<string, unknown>[]): Uint8Array[] {
  const names = Object.keys(dataset.features);
  const schema: SchemaElement[] = [{ name: 'schema', num_children: names.length }];
  for (const name of names) schemaOf(name, dataset.features[name], schema);
  const files: Uint8Array[] = [];
  for (let start = 0; start < Math.max(rows.length, 1); start += dataset.rowsPerFile) {
    const chunk = rows.slice(start, start + dataset.rowsPerFile);
    const buffer = parquetWriteBuffer({
      columnData: names.map((name) => ({ name, data: chunk.map((row) => toParquet(row[name], dataset.features[name])) })),
      schema: schema as never,
      kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features: dataset.features } }) }],
    });
    files.push(new Uint8Array(buffer));
  }
  return files;
}
