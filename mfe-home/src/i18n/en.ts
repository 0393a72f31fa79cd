/** English strings of the home screen (i18next namespace `home`); de and es must match its shape. */
export const en = {
  home: {
    title: 'Your datasets',
    datasetsFound_one: '{{count}} dataset found',
    datasetsFound_many: '{{count}} datasets found',
    datasetsFound_other: '{{count}} datasets found',
    searchPlaceholder: 'Search datasets',
    sortBy: 'Sort by',
    sortName: 'Name',
    sortUpdated: 'Updated',
    sortCreated: 'Created',
    workspace: 'Workspace',
    allWorkspaces: 'All workspaces',
    updatedAt: 'Updated {{date}}',
    emptyTitle: 'There are no datasets yet',
    emptyAdmin: 'Import a dataset from the hub or log records from Python to get started.',
    emptyAnnotator: 'Ask an administrator to upload records to a dataset of your workspace.',
    noMatches: 'No dataset matches your search.',
    importHubTitle: 'Import from the hub',
    importHubText: 'Paste the id of a dataset repository, for example stanfordnlp/imdb.',
    repoIdLabel: 'Repository id',
    importHubButton: 'Import dataset',
    importPythonTitle: 'Import from Python',
    importPythonText: 'Install the Python SDK with pip install argilla==2.8.0, then run:',
    importPythonAnnotator: 'Only admins and owners can add datasets and records from Python. Ask an administrator to upload records.',
    examplesTitle: 'Example datasets',
    guidesTitle: 'Guides',
    guideQuickstart: 'Quickstart',
    guideAnnotate: 'Annotate a dataset',
    guideDistribution: 'Distribute the annotation task',
    demoTitle: 'Try the demo',
    demoLink: 'Open the demo space',
  },
} as const;

/** Shape every other language must have: same keys, any strings. */
export type HomeMessages = Widen<typeof en>;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
