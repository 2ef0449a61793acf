import type { TemplateMap } from '@lit/localize';

export const templates: TemplateMap = {};
