export interface LogRecordsSnippetOptions {
  /** `window.location.origin`: the SDK appends /api/v1 itself. */
  apiUrl: string;
  apiKey: string;
  datasetName: string;
  workspaceName: string;
  /** Field names of the dataset, for the example record. */
  fieldNames: readonly string[];
}

/** A JSON string literal is a valid Python str literal. */
const py = (value: string) => JSON.stringify(value);

/**
 * A runnable `argilla` 2.8 script that logs more records into this dataset (spec §1: shown for
 * datasets created from the hub; contract §6.7 call sequence `client.datasets(name=...)`).
 */
export function buildLogRecordsSnippet({ apiUrl, apiKey, datasetName, workspaceName, fieldNames }: LogRecordsSnippetOptions): string {
  const fields = fieldNames.length ? fieldNames : ['text'];
  return [
    'import argilla as rg',
    '',
    `client = rg.Argilla(api_url=${py(apiUrl)}, api_key=${py(apiKey)})`,
    '',
    `dataset = client.datasets(name=${py(datasetName)}, workspace=${py(workspaceName)})`,
    '',
    'dataset.records.log([',
    '    {',
    ...fields.map((name) => `        ${py(name)}: "...",`),
    '    },',
    '])',
    '',
  ].join('\n');
}
