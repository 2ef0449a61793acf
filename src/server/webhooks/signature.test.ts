import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders } from './signature.js';

describe('webhook signatures', () => {
  // The Standard Webhooks specification's published test vector: matching it is what lets a
  // receiver verify our deliveries with any of that specification's libraries.
  it('reproduces the Standard Webhooks reference signature', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('gives the attempt its own timestamp in seconds and signs with it', () => {
    const headers = webhookHeaders(
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      '{"test": 2432232314}',
      1614265330_999,
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs with each secret, space-separated, as Standard Webhooks verifies a rotation', () => {
    const [current, previous] = [
      `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      `whsec_${Buffer.alloc(32, 2).toString('base64')}`,
    ];
    const body = '{"type":"extraction_run.completed"}';
    const headers = webhookHeaders([current, previous], 'msg_1', body);
    const timestamp = Number(headers['webhook-timestamp']);
    expect(headers['webhook-signature']).toBe(
      `${signWebhook(current, 'msg_1', timestamp, body)} ${signWebhook(previous, 'msg_1', timestamp, body)}`,
    );
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
    const stranger = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow(WebhookVerificationError);
  });
});
