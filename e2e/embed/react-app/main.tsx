/**
 * A partner's React 19 page with <extractor-app>. React 19 sets a custom element's props
 * as properties when the element has them (so the library is loaded before the first
 * render: a module script ahead of this one in the page), and `on<event-name>` props
 * become event listeners. What arrived is shown in React's own DOM, for the test to read.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { describeEvent } from '../event-log.js';
import './react-elements.js';

function PartnerApp({ service, session }: { service: string; session: string }) {
  const [events, setEvents] = useState<string[]>([]);
  const record = (event: Event) => setEvents((list) => [...list, describeEvent(event)]);
  return (
    <main>
      <h1>Partner page (React)</h1>
      <extractor-app
        baseUrl={service}
        session={session}
        onextractor-session-loaded={record}
        onextractor-step-changed={record}
        onextractor-files-uploaded={record}
        onextractor-run-started={record}
        onextractor-run-completed={record}
        onextractor-submit-requested={record}
        onextractor-results-submitted={record}
      />
      <h2>Events from the element</h2>
      <ol aria-label="Events from the element">
        {events.map((line, index) => (
          <li key={index}>{line}</li>
        ))}
      </ol>
    </main>
  );
}

const root = document.getElementById('root')!;
createRoot(root).render(
  <PartnerApp service={root.dataset.service ?? ''} session={root.dataset.session ?? ''} />,
);
