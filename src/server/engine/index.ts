/**
 * The extraction engine: from the files of a run to the data its schema asks for.
 * README.md in this folder describes the steps, the options and both strategies.
 */
import type { Strategy } from '../../contract/resources.js';
import type { Config } from '../config.js';
import { createLlmStrategy, type LlmRetryOptions } from './llm/llm-strategy.js';
import { createLocalStrategy } from './local/local-strategy.js';
import type { ExtractionStrategy } from './types.js';

export * from './types.js';
export { readDocuments } from './documents.js';
export { chunkPages, imageCharacterCost } from './chunks.js';
export {
  mergeExtractions,
  finaliseResult,
  reviewThreshold,
  valuesForReview,
  type MergedExtraction,
} from './merge.js';
export { terminateOcr } from './ocr/ocr.js';
export { type LlmRetryOptions } from './llm/llm-strategy.js';
export {
  documentStrategy,
  runDocumentPipeline,
  twiceOnCrash,
  type DocumentPipelineHooks,
  type DocumentPipelineOutcome,
  type DocumentPipelineRequest,
  type DocumentTokenStats,
  type ExtractionSoFar,
} from './pipeline.js';

export function createStrategy(
  name: Strategy,
  llm: Config['llm'],
  retry?: Partial<LlmRetryOptions>,
): ExtractionStrategy {
  return name === 'llm' ? createLlmStrategy(llm, retry) : createLocalStrategy();
}
