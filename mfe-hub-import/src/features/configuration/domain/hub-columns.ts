import type { HubFeature, HubFeatureObject } from '@scholia/shared/api';

/** What a hub column holds, as far as the editor cares (hub-contract §1 feature forms). */
export type ColumnKind = 'text' | 'integer' | 'float' | 'bool' | 'classLabel' | 'multiLabel' | 'image' | 'chat' | 'list' | 'other';

export interface HubColumn {
  name: string;
  kind: ColumnKind;
  /** The viewer's dtype for Value columns (metadata integer/float types of spec §3). */
  dtype?: string;
  /** Label names of ClassLabel and list-of-ClassLabel columns, trimmed. */
  labels?: string[];
}

/** Spec §3: hub metadata column types. */
const INTEGER_DTYPES = ['uint8', 'uint16', 'uint32', 'uint64', 'int8', 'int16', 'int32', 'int64'];
const FLOAT_DTYPES = ['float16', 'float32', 'float64'];

/** `Sequence`, `List`, `LargeList` and the legacy one-element array are the same "list" concept. */
function listItem(feature: HubFeature): HubFeature | undefined {
  if (Array.isArray(feature)) return feature.length === 1 ? feature[0] : undefined;
  if (['Sequence', 'List', 'LargeList'].includes(String(feature._type))) return feature.feature;
  return undefined;
}

const isStruct = (feature: HubFeature): feature is HubFeatureObject =>
  !Array.isArray(feature) && feature._type === undefined && typeof feature === 'object';

export function classifyColumn(name: string, feature: HubFeature): HubColumn {
  const item = listItem(feature);
  if (item !== undefined) {
    if (!Array.isArray(item) && item._type === 'ClassLabel') return { name, kind: 'multiLabel', labels: (item.names ?? []).map((l) => l.trim()) };
    if (isStruct(item) && 'role' in item && 'content' in item) return { name, kind: 'chat' };
    return { name, kind: 'list' };
  }
  if (Array.isArray(feature)) return { name, kind: 'other' };
  switch (feature._type) {
    case 'ClassLabel':
      return { name, kind: 'classLabel', labels: (feature.names ?? []).map((l) => l.trim()) };
    case 'Image':
      return { name, kind: 'image' };
    case 'Value': {
      const dtype = String(feature.dtype);
      if (dtype === 'string' || dtype === 'large_string') return { name, kind: 'text', dtype };
      if (INTEGER_DTYPES.includes(dtype)) return { name, kind: 'integer', dtype };
      if (FLOAT_DTYPES.includes(dtype)) return { name, kind: 'float', dtype };
      if (dtype === 'bool') return { name, kind: 'bool', dtype };
      return { name, kind: 'other', dtype };
    }
    default:
      return { name, kind: 'other' };
  }
}

export function classifyColumns(features: Record<string, HubFeature>): HubColumn[] {
  return Object.entries(features).map(([name, feature]) => classifyColumn(name, feature));
}
