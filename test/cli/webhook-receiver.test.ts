import { describe, expect, it } from 'vitest';
import { BoundedSet, startWebhookReceiver } from '../../src/cli/webhooks/receiver.js';
import { expectedSignature } from '../helpers/webhook-receiver.js';

describe('webhook receiver: bounded de-duplication', () => {
  it('BoundedSet forgets its oldest entries beyond the limit', () => {
    const set = new BoundedSet(2);
    for (const id of ['a', 'b', 'c']) set.add(id);
    expect(set.size).toBe(2);
    expect(set.has('a')).toBe(false);
    expect(set.has('b') && set.has('c')).toBe(true);
  });

  it('remembers the last N delivery ids: a replay within them is not written, an older one is', async () => {
    const written: string[] = [];
    const receiver = await startWebhookReceiver({
      secret: 's',
      host: '127.0.0.1',
      port: 0,
      path: '/',
      toleranceSeconds: 300,
      seenIds: 2,
      rawArticles: true,
      onAccepted: async (d) => {
        written.push(d.deliveryId);
      },
      log: () => undefined,
    });
    const send = async (id: string) => {
      const body = JSON.stringify({ event: 'articles.new', webhook_id: 1, articles: [{ id: 1 }] });
      const t = String(Math.floor(Date.now() / 1000));
      const r = await fetch(receiver.url, {
        method: 'POST',
        headers: {
          'x-webhook-signature': expectedSignature('s', t, body),
          'x-webhook-delivery-id': id,
          'x-webhook-timestamp': t,
        },
        body,
      });
      return r.status;
    };
    try {
      for (const id of ['a', 'b', 'b', 'c', 'a']) expect(await send(id)).toBe(200);
      expect(written).toEqual(['a', 'b', 'c', 'a']);
    } finally {
      await receiver.close();
    }
  });
});
