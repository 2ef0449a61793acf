/**
 * The labels the interface shows where the saved extractor has none, in the interface's
 * language: the English defaults of src/contract/labels.ts (written once, there), through
 * the catalogue. A label the extractor sets wins over these and over a partner's `strings`.
 */
import { msg } from '@lit/localize';
import {
  labelDefaults,
  labelMessageId,
  labelNames,
  resolveLabels,
  type LabelName,
  type Labels,
} from '../../contract/labels.js';

/** The default of every label in the active locale. */
export function localizedLabelDefaults(): Labels {
  const labels = { ...labelDefaults } as Labels;
  for (const name of labelNames)
    labels[name] = msg(labelDefaults[name], { id: labelMessageId(name) });
  return labels;
}

/** The extractor's labels, with the active locale's default wherever its text is empty. */
export function localizedLabels(
  source: Partial<Record<LabelName, string | null | undefined>>,
): Labels {
  return resolveLabels(source, localizedLabelDefaults());
}
