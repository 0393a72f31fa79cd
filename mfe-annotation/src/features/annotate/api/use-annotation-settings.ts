import { useQueries, useQuery } from '@tanstack/react-query';
import {
  currentUserQuery, datasetMetricsQuery, datasetQuery, fieldsQuery, metadataMetricsQuery, metadataPropertiesQuery,
  questionsQuery, suggestionAgentsQuery, vectorsSettingsQuery,
  ApiError,
} from '@scholia/shared/api';
import { useBusRefreshedQuery } from '../../progress/api/use-bus-refreshed-query.js';

/** Dataset, fields, questions, metadata properties, vectors and the user: what the screen needs first. */
export function useAnnotationSettings(datasetId: string) {
  const [dataset, fields, questions, metadata, vectors, user] = useQueries({
    queries: [
      datasetQuery(datasetId),
      fieldsQuery(datasetId),
      questionsQuery(datasetId),
      metadataPropertiesQuery(datasetId),
      vectorsSettingsQuery(datasetId),
      currentUserQuery(),
    ],
  });
  return {
    dataset: dataset.data,
    fields: fields.data?.items,
    questions: questions.data?.items,
    metadataProperties: metadata.data?.items ?? [],
    vectors: (vectors.data?.items ?? []) as { id: string; name: string; title: string }[],
    user: user.data,
    isError: dataset.isError || fields.isError || questions.isError,
    /** The first failed read, and its HTTP status (0: server unreachable). */
    error: [dataset.error, fields.error, questions.error].find(Boolean),
    errorStatus: [dataset.error, fields.error, questions.error].find((error): error is ApiError => error instanceof ApiError)?.status,
  };
}

/** Agents per question, for the suggestion filter. */
export function useSuggestionAgents(datasetId: string) {
  return useQuery(suggestionAgentsQuery(datasetId));
}

/** Metrics of each metadata property: terms and ranges fill the metadata filter (spec §3). */
export function useMetadataMetrics(ids: string[]) {
  return useQueries({ queries: ids.map((id) => metadataMetricsQuery(id)) });
}

/** The annotator's own counts, re-read (throttled) whenever anyone asks for a metrics refresh. */
export function useMyMetrics(datasetId: string) {
  return useBusRefreshedQuery(datasetMetricsQuery(datasetId), 'metrics:refresh-requested', datasetId);
}
