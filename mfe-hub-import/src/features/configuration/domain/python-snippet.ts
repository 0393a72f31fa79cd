import { buildMapping, type DatasetConfiguration } from './dataset-configuration.js';

const py = (value: string) => JSON.stringify(value);

/**
 * Spec §1: the Python snippet that logs more rows of the same hub split into the dataset (the
 * import took the first 10,000): same source columns, same targets, suggestions as `q.suggestion`.
 */
export function buildPythonSnippet(config: DatasetConfiguration, options: { apiUrl: string; workspaceName: string }): string {
  const mapping = buildMapping(config);
  const pairs: [string, string][] = [
    ...mapping.fields.map((m): [string, string] => [m.source, m.target]),
    ...(mapping.metadata ?? []).map((m): [string, string] => [m.source, m.target]),
    ...(mapping.suggestions ?? []).map((m): [string, string] => [m.source, `${m.target}.suggestion`]),
    ...(mapping.external_id ? [[mapping.external_id, 'id'] as [string, string]] : []),
  ];
  const lines = pairs.map(([source, target]) => `        ${py(source)}: ${py(target)},`);
  const subset = config.subset === 'default' ? '' : `, name=${py(config.subset)}`;
  return [
    'import argilla as rg',
    'from datasets import load_dataset',
    '',
    `client = rg.Argilla(api_url=${py(options.apiUrl)}, api_key="<your API key>")`,
    `dataset = client.datasets(name=${py(config.name.trim())}, workspace=${py(options.workspaceName)})`,
    '',
    `hub_rows = load_dataset(${py(config.repoId)}${subset}, split=${py(config.split)})`,
    '# The import took the first 10,000 rows; log the next ones.',
    'dataset.records.log(',
    '    records=hub_rows.select(range(10_000, min(20_000, len(hub_rows)))),',
    '    mapping={',
    ...lines,
    '    },',
    ')',
  ].join('\n');
}
