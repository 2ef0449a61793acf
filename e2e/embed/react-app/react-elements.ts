/**
 * What a partner writes to use the element in TSX: its tag among React's intrinsic
 * elements, with the element's properties and `on<event-name>` listeners typed from the
 * library's event map. (Module augmentation is the way React's JSX types are extended.)
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { ExtractorApp } from '../../../src/elements/app/app.js';
import type { ExtractorEventMap } from '../../../src/elements/internal/events.js';

type ExtractorEventProps = {
  [K in keyof ExtractorEventMap as `on${K}`]?: (event: ExtractorEventMap[K]) => void;
};

type ExtractorAppProps = DetailedHTMLProps<HTMLAttributes<ExtractorApp>, ExtractorApp> &
  Partial<Pick<ExtractorApp, 'baseUrl' | 'session' | 'mode' | 'headingLevel'>> &
  ExtractorEventProps;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'extractor-app': ExtractorAppProps;
    }
  }
}
