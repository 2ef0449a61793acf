/**
 * What the e2e tests need from the service, through its public API only: the admin token
 * set by global-setup.ts, and helpers that make extractors and embed sessions as a
 * partner's server would.
 */
export const e2eAdminToken = 'xpat_e2e-admin-token-0123456789abcdef';

export function serviceUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the suite through playwright.config.ts');
  return url;
}

export async function api<T = Record<string, unknown>>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  // A form (a file upload) goes as multipart, with the boundary fetch chooses.
  const form = init.body instanceof FormData ? init.body : undefined;
  const response = await fetch(`${serviceUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${init.token ?? e2eAdminToken}`,
      Accept: 'application/json',
      ...(init.body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
    },
    body: form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', title: 'Invoice number' },
    date: { type: 'string', format: 'date', title: 'Date' },
    total: { type: 'number', title: 'Total' },
    currency: { type: 'string', title: 'Currency' },
    line_items: {
      type: 'array',
      title: 'Line items',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, amount: { type: 'number' } },
      },
    },
  },
};

export interface ExtractorOptions {
  name?: string;
  strategy?: string;
  model?: string;
  redirectUrl?: string;
  allowDownload?: boolean;
  chunkSize?: number;
  labels?: Record<string, string>;
}

/** A saved extractor made through the API; returns its id. */
export async function createExtractor(options: ExtractorOptions = {}): Promise<string> {
  const created = await api<{ id: string }>('/api/saved_extractors', {
    body: {
      label: options.name ?? 'E2E invoice',
      jsonSchema: JSON.stringify(invoiceSchema),
      strategy: options.strategy ?? 'local',
      model: options.model ?? 'local',
      allowDownload: options.allowDownload ?? true,
      redirectUrl: options.redirectUrl ?? '',
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
      ...options.labels,
    },
  });
  return created.id;
}

export interface Session {
  token: string;
  bucket: string;
  embeddedUrl: string;
  fullPageUrl: string;
}

/** An embed session minted with the personal access token, as a partner's server does. */
export async function createSession(
  savedExtractor: string,
  extra: Record<string, unknown> = {},
): Promise<Session> {
  return api<Session>('/api/embed_sessions', { body: { savedExtractor, ...extra } });
}
