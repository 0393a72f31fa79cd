import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import {
  createDatasetFromHub, currentUserQuery, hubDatasetInfoQuery, hubFirstRowsQuery, isLoggedIn, myWorkspacesQuery,
  type CreationStep, type HubDatasetInfo, type HubSplit, type HubSubset, type Workspace,
} from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';
import { CodeBlock } from '@scholia/shared/ui';
import {
  buildCreationPlan, buildDefaultConfiguration, defaultRole, ID_COLUMN, suggestionColumnOf, textFieldNames,
  type ColumnConfig, type DatasetConfiguration,
} from '../domain/dataset-configuration.js';
import { classifyColumns } from '../domain/hub-columns.js';
import { buildPythonSnippet } from '../domain/python-snippet.js';
import { newQuestion, QUESTION_TYPES, type QuestionConfig, type QuestionType } from '../domain/question-defaults.js';
import { isConfigurationValid, validateConfiguration } from '../domain/validation.js';
import { useSubsetAndSplit } from '../../repository/components/repository-lookup.js';
import { isAdminOrOwner } from '../../access/roles.js';
import { lookupFailureMessage } from '../../repository/lookup-failure.js';
import { creationFailureMessage } from '../domain/creation-failure.js';
import { ColumnMapping } from './column-mapping.js';
import { QuestionEditor } from './question-editor.js';
import { RecordPreview } from './record-preview.js';

const NEW_WORKSPACE = '__new__';

/** `/new/:id`: the dataset configuration editor for one subset and split of a hub repository. */
export function ConfigurationEditor({ repoId }: { repoId?: string }) {
  const { t } = useTranslation('hubImport');
  const info = useQuery({ ...hubDatasetInfoQuery(repoId ?? ''), enabled: Boolean(repoId), retry: false });
  const { subset, split } = useSubsetAndSplit(info.data);
  const workspaces = useQuery(myWorkspacesQuery());
  if (!repoId) return <p>{t('noRepository')}</p>;
  if (info.isError) return <section className="sch-card mfe-hub-import"><p role="alert" className="mfe-hub-import__error">{lookupFailureMessage(info.error, t)}</p></section>;
  if (!info.data || !subset || !split || !workspaces.data) return <p aria-busy="true">{t('lookingUp')}</p>;
  return (
    <LoadedEditor
      key={`${subset.name}/${split.name}`}
      info={info.data}
      subset={subset}
      split={split}
      workspaces={workspaces.data.items}
    />
  );
}

function LoadedEditor({ info, subset, split, workspaces }: { info: HubDatasetInfo; subset: HubSubset; split: HubSplit; workspaces: Workspace[] }) {
  const { t } = useTranslation('hubImport');
  const navigate = useNavigate();
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });
  const [config, setConfig] = useState<DatasetConfiguration>(() =>
    buildDefaultConfiguration({
      repoId: info.repoId,
      subset: subset.name,
      split: split.name,
      columns: classifyColumns(subset.features),
      workspace: workspaces[0] ? { id: workspaces[0].id, name: workspaces[0].name } : { name: user?.username ?? '' },
    }),
  );
  const [newType, setNewType] = useState<QuestionType>('label_selection');
  const [step, setStep] = useState<CreationStep | undefined>();
  const [recordsSoFar, setRecordsSoFar] = useState(0);
  const rows = useQuery(hubFirstRowsQuery(info.repoId, subset.name, split.name));
  const errors = useMemo(() => validateConfiguration(config), [config]);
  const valid = isConfigurationValid(errors);
  const textFields = textFieldNames(config);
  const snippet = buildPythonSnippet(config, { apiUrl: window.location.origin, workspaceName: config.workspace.name });

  const create = useMutation({
    mutationFn: () => createDatasetFromHub(buildCreationPlan(config), {
      onStep: setStep,
      wait: { onAttempt: (_attempt, total) => setRecordsSoFar(total) },
    }),
    onSuccess: (result) => {
      notify({
        type: 'success',
        message: result.records.outcome === 'ready' ? t('editor.created', { count: result.records.total }) : t('editor.stillImporting'),
      });
      void navigate(`/dataset/${result.datasetId}/annotation-mode`);
    },
    onSettled: () => setStep(undefined),
  });

  const updateColumn = (name: string, patch: Partial<ColumnConfig>) =>
    setConfig((c) => ({ ...c, columns: c.columns.map((col) => (col.column.name === name ? { ...col, ...patch } : col)) }));
  const updateQuestion = (key: string, patch: Partial<QuestionConfig>) =>
    setConfig((c) => ({ ...c, questions: c.questions.map((q) => (q.key === key ? { ...q, ...patch } : q)) }));
  const releaseSuggestion = (col: ColumnConfig, questionKey: string): ColumnConfig => {
    if (col.role.kind !== 'suggestion' || col.role.questionKey !== questionKey) return col;
    const fallback = defaultRole(col.column);
    return { ...col, role: fallback.kind === 'suggestion' ? { kind: 'field', type: 'no mapping' } : fallback };
  };
  const setSuggestionColumn = (questionKey: string, column: string | undefined) =>
    setConfig((c) => ({
      ...c,
      columns: c.columns.map((col) =>
        col.column.name === column ? { ...col, role: { kind: 'suggestion', questionKey } } : releaseSuggestion(col, questionKey)),
    }));
  const removeQuestion = (key: string) =>
    setConfig((c) => ({ ...c, questions: c.questions.filter((q) => q.key !== key), columns: c.columns.map((col) => releaseSuggestion(col, key)) }));
  const addQuestion = () =>
    setConfig((c) => ({ ...c, questions: [...c.questions, newQuestion(newType, { existingNames: c.questions.map((q) => q.name), textFields: textFieldNames(c) })] }));

  const busy = create.isPending;
  return (
    <section className="sch-card mfe-hub-import mfe-hub-import--editor">
      <header className="mfe-hub-import__head">
        <h1>{t('editor.heading')}</h1>
        <p>
          {t('repository')}: <strong data-testid="hub-repo-id">{info.repoId}</strong> · {t('subset')}: {subset.name} · {t('split')}: {split.name}{' '}
          <Link to={`/${encodeURIComponent(info.repoId)}?${new URLSearchParams({ subset: subset.name, split: split.name }).toString()}`}>{t('editor.back')}</Link>
        </p>
      </header>
      <div className="mfe-hub-import__columns">
        <div className="mfe-hub-import__config">
          <div className="mfe-hub-import__choices">
            <label>
              {t('editor.name')}
              <input className="sch-input" value={config.name} aria-invalid={Boolean(errors.name)} onChange={(e) => setConfig((c) => ({ ...c, name: e.target.value }))} />
              {errors.name && <span className="mfe-hub-import__error" role="alert">{t(`validation.${errors.name}`)}</span>}
            </label>
            <label>
              {t('editor.workspace')}
              <select
                className="sch-input"
                aria-label={t('editor.workspace')}
                value={config.workspace.id ?? NEW_WORKSPACE}
                onChange={(e) => {
                  const chosen = workspaces.find((w) => w.id === e.target.value);
                  setConfig((c) => ({ ...c, workspace: chosen ? { id: chosen.id, name: chosen.name } : { name: '' } }));
                }}
              >
                {workspaces.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
                <option value={NEW_WORKSPACE}>{t('editor.newWorkspace')}</option>
              </select>
            </label>
            {!config.workspace.id && (
              <label>
                {t('editor.newWorkspaceName')}
                <input className="sch-input" value={config.workspace.name} onChange={(e) => setConfig((c) => ({ ...c, workspace: { name: e.target.value } }))} />
                {errors.workspace && <span className="mfe-hub-import__error" role="alert">{t(`validation.${errors.workspace}`)}</span>}
              </label>
            )}
          </div>

          <h2>{t('editor.fields')}</h2>
          <p className="sch-muted">{t('editor.fieldsHint')}</p>
          <ColumnMapping config={config} errors={errors.columns} onChange={updateColumn} />

          <h2>{t('editor.questions')}</h2>
          {config.questions.map((q) => (
            <QuestionEditor
              key={q.key}
              question={q}
              errors={errors.questions[q.key]}
              textFields={textFields}
              suggestionColumns={config.columns.map((c) => c.column.name).filter((n) => n !== ID_COLUMN)}
              suggestionColumn={suggestionColumnOf(config, q.key)}
              onChange={(patch) => updateQuestion(q.key, patch)}
              onSuggestionColumn={(column) => setSuggestionColumn(q.key, column)}
              onRemove={() => removeQuestion(q.key)}
            />
          ))}
          <div className="mfe-hub-import__choices">
            <label>
              {t('editor.questionType')}
              <select className="sch-input" value={newType} onChange={(e) => setNewType(e.target.value as QuestionType)}>
                {QUESTION_TYPES.map((type) => <option key={type} value={type}>{t(`editor.questionTypes.${type}`)}</option>)}
              </select>
            </label>
            <button type="button" className="sch-button sch-button--ghost" onClick={addQuestion}>{t('editor.addQuestion')}</button>
          </div>

          {errors.general.length > 0 && (
            <ul className="mfe-hub-import__errors" aria-label={t('validation.listLabel')}>
              {errors.general.map((key) => <li key={key} className="mfe-hub-import__error">{t(`validation.${key}`)}</li>)}
            </ul>
          )}
          {create.isError && <p role="alert" className="mfe-hub-import__error" data-testid="creation-failed">{creationFailureMessage(create.error, t)}</p>}
          {user && !isAdminOrOwner(user.role) && <p role="note">{t('onlyAdmins')}</p>}
          <button type="button" className="sch-button" disabled={!valid || busy || (user && !isAdminOrOwner(user.role))} onClick={() => create.mutate()}>
            {busy ? t('editor.creating') : t('editor.create')}
          </button>
          {busy && step && (
            <p aria-live="polite" data-testid="creation-step">
              {t(`editor.steps.${step}`)}{step === 'records' ? ` ${t('editor.recordsSoFar', { count: recordsSoFar })}` : ''}
            </p>
          )}

          <details className="mfe-hub-import__python">
            <summary>{t('editor.python')}</summary>
            <p className="sch-muted">{t('editor.pythonHint')}</p>
            <CodeBlock code={snippet} language="python" />
          </details>
        </div>
        <RecordPreview config={config} row={rows.data?.[0]} />
      </div>
    </section>
  );
}
