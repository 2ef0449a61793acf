/**
 * The labels the interface shows where the saved extractor has none, in the interface's
 * language: the English defaults of src/contract/labels.ts (written once, there), through
 * the catalogue. A label the extractor sets wins over these and over a partner's `strings`.
 */
import { msg } from '@lit/localize';
import { labelDefaults, resolveLabels, type LabelName, type Labels } from '../contract/labels.js';

/** The default of every label in the active locale. */
export function localizedLabelDefaults(): Labels {
  return {
    pageTitle: msg(labelDefaults.pageTitle, { id: 'label.page-title' }),
    introductionViewHeading: msg(labelDefaults.introductionViewHeading, {
      id: 'label.introduction-view-heading',
    }),
    introductionViewDescription: msg(labelDefaults.introductionViewDescription, {
      id: 'label.introduction-view-description',
    }),
    introductionViewNextButtonLabel: msg(labelDefaults.introductionViewNextButtonLabel, {
      id: 'label.introduction-view-next-button-label',
    }),
    bucketViewHeading: msg(labelDefaults.bucketViewHeading, { id: 'label.bucket-view-heading' }),
    bucketViewDescription: msg(labelDefaults.bucketViewDescription, {
      id: 'label.bucket-view-description',
    }),
    bucketViewBackButtonLabel: msg(labelDefaults.bucketViewBackButtonLabel, {
      id: 'label.bucket-view-back-button-label',
    }),
    bucketViewContinueButtonLabel: msg(labelDefaults.bucketViewContinueButtonLabel, {
      id: 'label.bucket-view-continue-button-label',
    }),
    bucketViewBeginButtonLabel: msg(labelDefaults.bucketViewBeginButtonLabel, {
      id: 'label.bucket-view-begin-button-label',
    }),
    extractionViewHeading: msg(labelDefaults.extractionViewHeading, {
      id: 'label.extraction-view-heading',
    }),
    extractionViewDescription: msg(labelDefaults.extractionViewDescription, {
      id: 'label.extraction-view-description',
    }),
    extractionViewBackButtonLabel: msg(labelDefaults.extractionViewBackButtonLabel, {
      id: 'label.extraction-view-back-button-label',
    }),
    extractionViewContinueButtonLabel: msg(labelDefaults.extractionViewContinueButtonLabel, {
      id: 'label.extraction-view-continue-button-label',
    }),
    extractionViewRestartButtonLabel: msg(labelDefaults.extractionViewRestartButtonLabel, {
      id: 'label.extraction-view-restart-button-label',
    }),
    extractionViewStartButtonLabel: msg(labelDefaults.extractionViewStartButtonLabel, {
      id: 'label.extraction-view-start-button-label',
    }),
    extractionViewCancelButtonLabel: msg(labelDefaults.extractionViewCancelButtonLabel, {
      id: 'label.extraction-view-cancel-button-label',
    }),
    extractionViewPauseButtonLabel: msg(labelDefaults.extractionViewPauseButtonLabel, {
      id: 'label.extraction-view-pause-button-label',
    }),
    resultsViewHeading: msg(labelDefaults.resultsViewHeading, { id: 'label.results-view-heading' }),
    resultsViewDescription: msg(labelDefaults.resultsViewDescription, {
      id: 'label.results-view-description',
    }),
    resultsViewBackButtonLabel: msg(labelDefaults.resultsViewBackButtonLabel, {
      id: 'label.results-view-back-button-label',
    }),
    resultsViewSubmitButtonLabel: msg(labelDefaults.resultsViewSubmitButtonLabel, {
      id: 'label.results-view-submit-button-label',
    }),
  };
}

/** The extractor's labels, with the active locale's default wherever its text is empty. */
export function localizedLabels(
  source: Partial<Record<LabelName, string | null | undefined>>,
): Labels {
  return resolveLabels(source, localizedLabelDefaults());
}
