/** The demo saved extractor the first start creates, so there is something to try at once. */
import type { ExtractorInput } from '../../contract/resources.js';

export const invoiceSchema = {
  type: 'object',
  title: 'Invoice',
  properties: {
    invoice_number: {
      type: ['string', 'null'],
      title: 'Invoice number',
      description: 'The number the vendor gave the invoice.',
    },
    date: {
      type: ['string', 'null'],
      format: 'date',
      title: 'Invoice date',
      description: 'The date the invoice was issued.',
    },
    total: {
      type: ['number', 'null'],
      title: 'Total',
      description: 'The amount due, taxes included.',
    },
    currency: {
      type: ['string', 'null'],
      title: 'Currency',
      description: 'ISO 4217 currency code, such as EUR or USD.',
      pattern: '^[A-Z]{3}$',
    },
    vendor: { type: ['string', 'null'], title: 'Vendor', description: 'Who issued the invoice.' },
    line_items: {
      type: 'array',
      title: 'Line items',
      items: {
        type: 'object',
        properties: {
          description: { type: ['string', 'null'], title: 'Description' },
          quantity: { type: ['number', 'null'], title: 'Quantity' },
          unit_price: { type: ['number', 'null'], title: 'Unit price' },
          amount: { type: ['number', 'null'], title: 'Amount' },
        },
        required: ['description', 'quantity', 'unit_price', 'amount'],
      },
    },
  },
  required: ['invoice_number', 'date', 'total', 'currency', 'vendor', 'line_items'],
} as const;

export const demoExtractor: ExtractorInput = {
  label: 'Invoice',
  jsonSchema: JSON.stringify(invoiceSchema),
  strategy: 'local',
  model: 'local',
  outputInstructions: 'Dates as YYYY-MM-DD, amounts as numbers, currency as an ISO 4217 code.',
  pageTitle: 'Invoice data extraction',
  introductionViewHeading: 'Turn your invoices into data',
  introductionViewDescription:
    'Upload one or more invoices. We read the invoice number, date, vendor, total and line items for you to check before you submit.',
  introductionViewNextButtonLabel: 'Get started',
  bucketViewHeading: 'Add your invoices',
  // The drop zone lists the kinds of file and the size limit; this says something else.
  bucketViewDescription: 'Add the invoices you want read; several at once is fine.',
  bucketViewBackButtonLabel: 'Back',
  bucketViewContinueButtonLabel: 'Continue',
  bucketViewBeginButtonLabel: 'Extract data',
  extractionViewHeading: 'Reading your invoices',
  extractionViewDescription:
    'This usually takes a few seconds per page. You can pause or cancel at any time.',
  extractionViewBackButtonLabel: 'Back to files',
  extractionViewContinueButtonLabel: 'Continue',
  extractionViewRestartButtonLabel: 'Run again',
  extractionViewStartButtonLabel: 'Start',
  extractionViewCancelButtonLabel: 'Cancel',
  extractionViewPauseButtonLabel: 'Pause',
  resultsViewHeading: 'Check the invoice data',
  resultsViewDescription: 'Correct anything that was read wrongly, then submit.',
  resultsViewBackButtonLabel: 'Back',
  resultsViewSubmitButtonLabel: 'Submit',
  allowDownload: true,
  enableWebhook: false,
  webhookUrl: '',
  redirectUrl: '',
  includeText: true,
  includeEmbeddedImages: false,
  markEmbeddedImages: false,
  includePageImages: false,
  markPageImages: false,
  chunkSize: 4000,
  combineFiles: false,
  allowResubmission: false,
  documentLanguages: [],
  // What an invoice's own arithmetic says; a value that breaks it is marked for review. The
  // total may hold taxes and shipping that the lines do not, so the lines may add up to
  // less; a unit price may be rounded, so a line may be off by a little.
  checks: [
    {
      left: { sum: '/line_items/*/amount' },
      op: '<=',
      right: '/total',
      tolerance: 0.01,
      message: 'The line items add up to more than the total.',
    },
    {
      left: { multiply: ['/line_items/*/quantity', '/line_items/*/unit_price'] },
      op: '<=',
      right: '/line_items/*/amount',
      tolerance: 2,
      message: 'Quantity times unit price is more than the amount of this line.',
    },
    { left: '/total', op: '>=', right: 0, message: 'The total is negative.' },
  ],
};
