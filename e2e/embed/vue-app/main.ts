/**
 * A partner's Vue 3 page with <extractor-app>. The compiler is told the tag is a custom
 * element (isCustomElement), so Vue leaves it to the browser, sets `:baseUrl` and
 * `:session` as properties (the element has them: the library is loaded before the app
 * mounts), and listens with `@extractor-…`. This partner takes the submit over: it cancels
 * `extractor-submit-requested` and shows the results in its own DOM instead.
 */
import { createApp, ref } from 'vue';
import { describeEvent } from '../event-log.js';
import type { ExtractorEventMap } from '../../../src/elements/internal/events.js';

const root = document.getElementById('root')!;

const app = createApp({
  setup() {
    const events = ref<string[]>([]);
    const takenOver = ref('');
    const record = (event: Event) => events.value.push(describeEvent(event));
    const takeOverSubmit = (event: ExtractorEventMap['extractor-submit-requested']) => {
      event.preventDefault();
      record(event);
      takenOver.value = JSON.stringify(event.detail.data);
    };
    return {
      service: root.dataset.service ?? '',
      session: root.dataset.session ?? '',
      events,
      takenOver,
      record,
      takeOverSubmit,
    };
  },
  template: `
    <main>
      <h1>Partner page (Vue)</h1>
      <extractor-app
        :baseUrl="service"
        :session="session"
        @extractor-session-loaded="record"
        @extractor-step-changed="record"
        @extractor-files-uploaded="record"
        @extractor-run-started="record"
        @extractor-run-completed="record"
        @extractor-submit-requested="takeOverSubmit"
        @extractor-results-submitted="record"
      ></extractor-app>
      <p v-if="takenOver" role="status">The partner received the results: {{ takenOver }}</p>
      <h2>Events from the element</h2>
      <ol aria-label="Events from the element">
        <li v-for="(line, index) in events" :key="index">{{ line }}</li>
      </ol>
    </main>`,
});
app.config.compilerOptions.isCustomElement = (tag) => tag.startsWith('extractor-');
app.mount(root);
