/** `/api/embed_sessions`: minting, describing and revoking embed session tokens. */
import { Hono } from 'hono';
import { embedSessionInputWithLanguageSchema } from '../../../contract/session-language.js';
import { NotFoundError } from '../../errors.js';
import { currentSession, mintEmbedSession, renewEmbedSession } from '../../sessions/sessions.js';
import { revokeToken } from '../../tokens/tokens.js';
import { headerToken } from '../auth.js';
import { readInput } from '../body.js';
import type { AppEnv } from '../context.js';
import { currentSessionKind, embedSessionKind } from '../kinds.js';
import { creationOf, operationsOf, readingOf, type TagObject } from '../openapi.js';
import {
  chooseRepresentation,
  deleteById,
  negotiated,
  personalOnly,
  sendCreated,
  sendResource,
} from '../respond.js';

export const sessionsTag: TagObject = {
  name: 'Embed sessions',
  description:
    'Short-lived tokens for the hosted interface, minted with a personal access token. A ' +
    'session token reads its extractor, reads and uploads to its bucket, and starts, watches, ' +
    'controls and submits the runs of that bucket; anything else answers 404.',
};

const operation = operationsOf(sessionsTag);

export const sessionRoutes = new Hono<AppEnv>()
  .post(
    '/',
    operation('createEmbedSession', 'Mint an embed session token', {
      description:
        'For one extractor and one bucket (a new bucket when none is named). The embeddedUrl ' +
        'and fullPageUrl of the answer already carry the session. Personal access tokens only.',
      ...creationOf('session'),
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const input = await readInput(c, embedSessionInputWithLanguageSchema, {
        kind: embedSessionKind,
      });
      const { db, config } = c.get('services');
      const session = await mintEmbedSession(db, config, input);
      // The answer carries the token: no cache may keep it.
      return sendCreated(c, embedSessionKind, session, { 'Cache-Control': 'no-store' });
    },
  )
  .post(
    '/renew',
    operation('renewEmbedSession', 'Renew the session token in use', {
      description:
        'With a session token that has not expired: a new token for the same extractor, ' +
        'bucket and settings, as long-lived as the first but never past the renewableUntil ' +
        'fixed when the session was minted (maxLifetimeSeconds). A token is renewed once: ' +
        'renewing it again answers the same renewal (the same token, id and expiry), so a ' +
        'retry after a lost answer, or two tabs renewing one token, end up with one token. ' +
        'The token used keeps its own expiry; any older token of the session expires, so a ' +
        'session has at most two live tokens. 409 when the session has less than a minute ' +
        'left to give; a personal access token gets 404. The hosted full page renews itself ' +
        'before its token expires.',
      answer: { status: 201, resource: 'session', description: 'The renewed session.' },
      problems: [404, 406, 409],
    }),
    negotiated,
    async (c) => {
      const principal = c.get('principal');
      if (principal.kind !== 'session') throw new NotFoundError();
      const { db, config } = c.get('services');
      const session = await renewEmbedSession(db, config, principal, headerToken(c));
      return sendCreated(c, embedSessionKind, session, { 'Cache-Control': 'no-store' });
    },
  )
  .get(
    '/current',
    operation('getCurrentEmbedSession', 'Describe the session token in use', {
      description: 'Session tokens only; a personal access token gets 404.',
      ...readingOf('currentSession'),
    }),
    async (c) => {
      // Who asks comes first: a personal token gets its 404 whatever it accepts.
      const session = currentSession(c.get('principal'));
      if (!session) throw new NotFoundError();
      return sendResource(c, currentSessionKind, session, { mediaType: chooseRepresentation(c) });
    },
  )
  .delete(
    '/:id',
    operation('revokeEmbedSession', 'Revoke an embed session', {
      description:
        'By the id of the session as minted, or of any of its renewals: every token of the ' +
        'session (the one minted and all its renewals) is revoked, and its open event ' +
        'streams end. 404 when the session is revoked already.',
      answer: {
        status: 204,
        description: 'Revoked: every token of the session answers 401 from now on.',
      },
      problems: [404],
    }),
    personalOnly,
    deleteById((db, id) => revokeToken(db, id, 'session')),
  );
