/**
 * The texts of the hosted interface, as the saved extractor names them, with the English
 * default shown when a label is missing or empty.
 */
export const labelDefaults = {
  pageTitle: 'Extract document data',
  introductionViewHeading: 'Extract data from your documents',
  introductionViewDescription:
    'Upload your documents and we will read the data out of them for you to check.',
  introductionViewNextButtonLabel: 'Get started',
  bucketViewHeading: 'Upload your documents',
  bucketViewDescription: 'Add the files you want to extract data from.',
  bucketViewBackButtonLabel: 'Back',
  bucketViewContinueButtonLabel: 'Continue',
  bucketViewBeginButtonLabel: 'Begin extraction',
  extractionViewHeading: 'Extracting your data',
  extractionViewDescription: 'This can take a moment. You can pause or cancel at any time.',
  extractionViewBackButtonLabel: 'Back',
  // One label for both ways on: it resumes a paused run and leads a completed one to the
  // results (the two never show together), so it must fit both.
  extractionViewContinueButtonLabel: 'Continue',
  extractionViewRestartButtonLabel: 'Start over',
  extractionViewStartButtonLabel: 'Start',
  extractionViewCancelButtonLabel: 'Cancel',
  extractionViewPauseButtonLabel: 'Pause',
  resultsViewHeading: 'Review your data',
  resultsViewDescription:
    'Check the extracted values, correct anything that is wrong, then submit.',
  resultsViewBackButtonLabel: 'Back',
  resultsViewSubmitButtonLabel: 'Submit',
} as const;

export type LabelName = keyof typeof labelDefaults;
export type Labels = Record<LabelName, string>;

export const labelNames = Object.keys(labelDefaults) as LabelName[];

/**
 * A label's id in the interface's message catalogues (src/locales): `label.` and its name in
 * kebab case, `label.bucket-view-heading`.
 */
export function labelMessageId(name: LabelName): string {
  return `label.${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Every label of an extractor, with the default wherever the extractor's text is empty. */
export function resolveLabels(
  source: Partial<Record<LabelName, string | null | undefined>>,
  defaults: Labels = labelDefaults,
): Labels {
  const labels = { ...defaults };
  for (const name of labelNames) {
    const text = source[name]?.trim();
    if (text) labels[name] = text;
  }
  return labels;
}
