/**
 * The labels the interface shows where the saved extractor has none, in the interface's
 * language: the English defaults of src/contract/labels.ts, through the catalogue. A label
 * the extractor sets wins over these and over a partner's `strings`.
 */
import { msg } from '@lit/localize';
import { resolveLabels, type LabelName, type Labels } from '../contract/labels.js';

/** The default of every label in the active locale. */
export function localizedLabelDefaults(): Labels {
  return {
    pageTitle: msg('Extract document data', { id: 'label.page-title' }),
    introductionViewHeading: msg('Extract data from your documents', {
      id: 'label.introduction-view-heading',
    }),
    introductionViewDescription: msg(
      'Upload your documents and we will read the data out of them for you to check.',
      { id: 'label.introduction-view-description' },
    ),
    introductionViewNextButtonLabel: msg('Get started', {
      id: 'label.introduction-view-next-button-label',
    }),
    bucketViewHeading: msg('Upload your documents', { id: 'label.bucket-view-heading' }),
    bucketViewDescription: msg('Add the files you want to extract data from.', {
      id: 'label.bucket-view-description',
    }),
    bucketViewBackButtonLabel: msg('Back', { id: 'label.bucket-view-back-button-label' }),
    bucketViewContinueButtonLabel: msg('Continue', {
      id: 'label.bucket-view-continue-button-label',
    }),
    bucketViewBeginButtonLabel: msg('Begin extraction', {
      id: 'label.bucket-view-begin-button-label',
    }),
    extractionViewHeading: msg('Extracting your data', { id: 'label.extraction-view-heading' }),
    extractionViewDescription: msg('This can take a moment. You can pause or cancel at any time.', {
      id: 'label.extraction-view-description',
    }),
    extractionViewBackButtonLabel: msg('Back', { id: 'label.extraction-view-back-button-label' }),
    extractionViewContinueButtonLabel: msg('Continue', {
      id: 'label.extraction-view-continue-button-label',
    }),
    extractionViewRestartButtonLabel: msg('Start over', {
      id: 'label.extraction-view-restart-button-label',
    }),
    extractionViewStartButtonLabel: msg('Start', {
      id: 'label.extraction-view-start-button-label',
    }),
    extractionViewCancelButtonLabel: msg('Cancel', {
      id: 'label.extraction-view-cancel-button-label',
    }),
    extractionViewPauseButtonLabel: msg('Pause', {
      id: 'label.extraction-view-pause-button-label',
    }),
    resultsViewHeading: msg('Review your data', { id: 'label.results-view-heading' }),
    resultsViewDescription: msg(
      'Check the extracted values, correct anything that is wrong, then submit.',
      { id: 'label.results-view-description' },
    ),
    resultsViewBackButtonLabel: msg('Back', { id: 'label.results-view-back-button-label' }),
    resultsViewSubmitButtonLabel: msg('Submit', { id: 'label.results-view-submit-button-label' }),
  };
}

/** The extractor's labels, with the active locale's default wherever its text is empty. */
export function localizedLabels(
  source: Partial<Record<LabelName, string | null | undefined>>,
): Labels {
  return resolveLabels(source, localizedLabelDefaults());
}
