/**
 * `news webhooks listen`: a local receiver (src/cli/webhooks/receiver.ts)
 * that prints its URL as the first line of stdout, then one record per
 * delivered article. With --mock it starts the in-process mock publishing
 * articles, subscribes itself through the mock's dashboard route, and the
 * whole loop runs offline. It runs until Ctrl-C (exit 0: stopping a listener
 * is how it ends) or `--max-deliveries N`.
 */
import { UsageError } from '../../api/errors.js';
import { buildRequestBody } from '../../params/validate.js';
import type { CommandInput } from '../command-spec.js';
import type { Runtime } from '../runtime/runtime.js';
import { MOCK_DEFAULT_KEY } from '../settings/settings.js';
import { secretFrom, toleranceFrom, wholeNumber } from './options.js';
import { openRecordStream, streamingFormat } from './output.js';
import type { AcceptedDelivery } from './receiver.js';
import { WEBHOOK_FILTER_PARAMS } from './filters.js';

export const DEFAULT_LISTEN_PORT = 4242;
/** `listen --mock` without --publish-rate: one article a second, so something arrives. */
export const DEFAULT_MOCK_PUBLISH_RATE = 60;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

interface ListenPlan {
  secret: string;
  host: string;
  port: number;
  path: string;
  tolerance: number;
  forwardTo: string | undefined;
  maxDeliveries: number | undefined;
  maxBody: number;
  filters: Record<string, unknown> | undefined;
}

/** Every flag checked before anything listens or starts. */
function plan(input: CommandInput, runtime: Runtime): ListenPlan {
  const { options } = input;
  const mock = runtime.settings.mock;
  const host = typeof options['host'] === 'string' ? options['host'] : '127.0.0.1';
  if (!LOOPBACK.has(host))
    runtime.report.warn(
      `listening on ${host}, not loopback: anyone who can reach it can send requests (unsigned ones get 401)`,
    );
  const path = typeof options['path'] === 'string' ? options['path'] : '/';
  if (!path.startsWith('/') || /[?#\s]/.test(path))
    throw new UsageError(`--path must start with / and hold no query, got "${path}"`);
  let forwardTo: string | undefined;
  if (typeof options['forwardTo'] === 'string') {
    forwardTo = options['forwardTo'];
    let url: URL | undefined;
    try {
      url = new URL(forwardTo);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new UsageError(`--forward-to must be an http(s) URL, got "${forwardTo}"`);
  }
  if (input.params.length > 0 && !mock) {
    throw new UsageError('filter flags need --mock: a real subscription keeps its own filters', {
      hint: 'change them with `news webhooks update ID --language-code en …`',
    });
  }
  const lookup = (name: string) => WEBHOOK_FILTER_PARAMS.find((d) => d.name === name);
  const filters = mock
    ? buildRequestBody(input.params, { now: runtime.io.now(), lookup })
    : undefined;
  return {
    // With --mock the subscription's own secret is used unless one is given.
    secret: secretFrom(options, runtime.io.env, !mock),
    host,
    port: wholeNumber(options, 'port', DEFAULT_LISTEN_PORT, 0, 65_535),
    path,
    tolerance: toleranceFrom(options),
    forwardTo,
    maxDeliveries:
      options['maxDeliveries'] === undefined
        ? undefined
        : wholeNumber(options, 'max-deliveries', 1, 1, Number.MAX_SAFE_INTEGER),
    maxBody: wholeNumber(options, 'max-body', 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    filters,
  };
}

/** Creates the mock subscription to this receiver; returns its id and secret. */
async function subscribeMock(
  runtime: Runtime,
  url: string,
  filters: Record<string, unknown>,
): Promise<{ id: number; secret: string }> {
  await runtime.client();
  const base = runtime.mockUrl;
  if (base === undefined) throw new Error('the in-process mock did not start');
  const response = await fetch(new URL('/__mock/webhooks', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      url,
      filters,
      api_key: runtime.settings.apiKey ?? MOCK_DEFAULT_KEY,
    }),
  });
  const body = (await response.json()) as {
    id?: number;
    secret?: string;
    errors?: { message?: string }[];
  };
  if (!response.ok || body.id === undefined || body.secret === undefined) {
    throw new UsageError(
      `the mock refused the subscription: ${body.errors?.[0]?.message ?? `HTTP ${response.status}`}`,
    );
  }
  return { id: body.id, secret: body.secret };
}

export async function listen(input: CommandInput, runtime: Runtime): Promise<void> {
  const settings = plan(input, runtime);
  const format = await streamingFormat(runtime);
  if (runtime.settings.mock) {
    const rate = input.options['publishRate'];
    runtime.mockOptions = {
      ...runtime.mockOptions,
      // Deliveries come to the receiver over HTTP, and the subscription is made by URL.
      listen: true,
      publishRate:
        rate === undefined
          ? DEFAULT_MOCK_PUBLISH_RATE
          : wholeNumber(input.options, 'publish-rate', DEFAULT_MOCK_PUBLISH_RATE, 1, 6_000_000),
    };
  }
  const [{ startWebhookReceiver }, output] = await Promise.all([
    import('./receiver.js'),
    openRecordStream(runtime, format),
  ]);

  // Deliveries are written one at a time, in the order they were accepted.
  let queue: Promise<void> = Promise.resolve();
  let stopReason: string | undefined;
  let wake: (() => void) | undefined;
  const stop = (reason: string): void => {
    stopReason ??= reason;
    wake?.();
  };
  const secret = { value: settings.secret };
  let written = 0;
  let accepted = 0;
  let failure: unknown;

  const receiver = await startWebhookReceiver({
    get secret() {
      return secret.value;
    },
    host: settings.host,
    port: settings.port,
    path: settings.path,
    toleranceSeconds: settings.tolerance,
    forwardTo: settings.forwardTo,
    maxBodyBytes: settings.maxBody,
    // jsonl: articles are written as the signed bytes, never decoded (payload.ts).
    rawArticles: output.takesRaw,
    onAccepted: (delivery: AcceptedDelivery) => {
      const records = (delivery.payload.articles ?? []) as Record<string, unknown>[];
      const { raw } = delivery;
      queue = queue.then(async () => {
        try {
          if (raw !== undefined) await output.writeRaw(raw);
          else await output.write(records);
        } catch (error) {
          failure ??= error;
          stop('output failed');
          throw error;
        }
        written += raw?.length ?? records.length;
        accepted += 1;
        if (output.broken) stop('stdout closed');
        if (settings.maxDeliveries !== undefined && accepted >= settings.maxDeliveries)
          stop(`${settings.maxDeliveries} deliveries received`);
      });
      return queue;
    },
    log: (line) => runtime.report.notice(`${new Date().toISOString()} ${line}`),
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot listen on ${settings.host}:${settings.port}: ${error.code ?? error.message}`,
      {
        hint:
          error.code === 'EADDRINUSE'
            ? 'pick another --port, or --port 0 for a free one'
            : undefined,
      },
    );
  });

  try {
    // The contract: the URL is the first line on stdout.
    await runtime.write(`${receiver.url}\n`);
    if (runtime.settings.mock) {
      const created = await subscribeMock(runtime, receiver.url, settings.filters ?? {});
      if (input.options['secret'] === undefined) secret.value = created.secret;
      runtime.report.notice(
        `mock webhook ${created.id} delivers to ${receiver.url} (${runtime.mockOptions.publishRate} articles per mock minute are published)`,
      );
    }
    runtime.report.notice(
      `listening for deliveries on ${receiver.url}${settings.forwardTo ? `, forwarding to ${settings.forwardTo}` : ''}; Ctrl-C to stop`,
    );
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (stopReason !== undefined) resolve();
      runtime.signal.addEventListener('abort', () => stop('interrupted'), { once: true });
    });
  } finally {
    await receiver.close();
    await queue.catch(() => undefined);
    await output.close();
  }
  if (failure !== undefined) throw failure;
  runtime.report.notice(
    `stopped (${stopReason ?? 'done'}): ${accepted} deliveries, ${written} records written`,
  );
}
