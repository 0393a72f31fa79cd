export interface PythonSnippetOptions {
  /** `window.location.origin`: the SDK appends /api/v1 itself. */
  apiUrl: string;
  apiKey: string;
  /** First workspace of the user; without one the snippet creates `my_workspace` (owners only). */
  workspace?: string;
  datasetName?: string;
}

function py(value: string): string {
  return JSON.stringify(value); // a JSON string literal is a valid Python str literal
}

/**
 * A runnable script for the `argilla` SDK 2.8 against this server: connect, create a dataset
 * with rg.Settings, log records (contract §6.7 call sequences).
 */
export function buildPythonSnippet({ apiUrl, apiKey, workspace, datasetName = 'my_first_dataset' }: PythonSnippetOptions): string {
  const lines = [
    'import argilla as rg',
    '',
    `client = rg.Argilla(api_url=${py(apiUrl)}, api_key=${py(apiKey)})`,
    '',
  ];
  if (!workspace) {
    lines.push('workspace = rg.Workspace(name="my_workspace", client=client)', 'workspace.create()', '');
  }
  lines.push(
    'settings = rg.Settings(',
    '    guidelines="Classify the sentiment of each review.",',
    '    fields=[rg.TextField(name="text")],',
    '    questions=[',
    '        rg.LabelQuestion(name="sentiment", labels=["positive", "negative", "neutral"]),',
    '    ],',
    ')',
    '',
    'dataset = rg.Dataset(',
    `    name=${py(datasetName)},`,
    `    workspace=${workspace ? py(workspace) : '"my_workspace"'},`,
    '    settings=settings,',
    '    client=client,',
    ')',
    'dataset.create()',
    '',
    'dataset.records.log([',
    '    rg.Record(fields={"text": "I loved this movie, the cast was brilliant."}),',
    '    rg.Record(fields={"text": "The plot made no sense and the ending dragged."}),',
    '])',
  );
  return `${lines.join('\n')}\n`;
}
