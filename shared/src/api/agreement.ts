import { cachedGet } from './query-client.js';

/** `GET /datasets/{id}/agreement` (Scholia extension, owners and admins). */
export interface AnnotatorAgreement {
  user_id: string;
  username: string | null;
  records: number;
  percent_agreement: number | null;
}

export interface QuestionAgreement {
  question: { id: string; name: string; type: string };
  metric: string;
  records: number;
  percent_agreement: number | null;
  alpha: number | null;
  labels?: { label: string; percent_agreement: number | null; alpha: number | null }[];
  annotators: AnnotatorAgreement[];
}

export interface DatasetAgreement {
  questions: QuestionAgreement[];
  annotators: AnnotatorAgreement[];
}

/** A failed fetch is silent: the figures only add to the progress. */
export const datasetAgreementQuery = (id: string) =>
  cachedGet<DatasetAgreement>(`v1/datasets/${id}/agreement`, {}, { globalErrorHandler: false });
