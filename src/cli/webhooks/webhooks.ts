/**
 * `news webhooks …`: managing subscriptions (/v1/webhooks), checking a
 * delivery's signature offline, and a local receiver. Plain data; every
 * handler is imported when it runs, so `news --help` loads none of them.
 */
import { STREAMING_FORMATS } from '../../output/formats.js';
import type { CommandSpec } from '../command-spec.js';
import { OUTPUT } from '../settings/global-options.js';
import { WEBHOOK_FILTER_PARAMS as FILTER_PARAMS } from './filters.js';

const manage = () => import('./manage.js');
const ID_ARG = [{ name: 'id', description: 'webhook id (see `news webhooks list`)' }] as const;

const list: CommandSpec = {
  name: 'list',
  summary: "the account's webhooks (GET /v1/webhooks); any list format",
  examples: ['news webhooks list', 'news webhooks list -f csv -o webhooks.csv'],
  run: async (input, runtime) => (await manage()).listWebhooks(input, runtime),
};

const get: CommandSpec = {
  name: 'get',
  summary: 'one webhook (GET /v1/webhooks/ID)',
  args: ID_ARG,
  examples: ['news webhooks get 1', 'news webhooks get 2 -f json'],
  run: async (input, runtime) => (await manage()).getWebhook(input, runtime),
};

const update: CommandSpec = {
  name: 'update',
  summary: "change a webhook's URL and/or filters (PATCH /v1/webhooks/ID)",
  description:
    'Filter flags are the search filters, checked as `news search` checks them; given, they replace the whole filter set (none given: the filters stay).',
  args: ID_ARG,
  params: FILTER_PARAMS,
  options: [{ flags: '--url <url>', description: 'new delivery URL (http or https)' }],
  examples: [
    'news webhooks update 1 --url https://example.com/hooks/news-v2',
    'news webhooks update 2 --language-code en,fr --category-id medtop:04000000',
  ],
  run: async (input, runtime) => (await manage()).updateWebhook(input, runtime),
};

const pause: CommandSpec = {
  name: 'pause',
  summary: 'stop deliveries (PATCH status "paused")',
  args: ID_ARG,
  examples: ['news webhooks pause 1', 'news webhooks pause 1 --dry-run'],
  run: async (input, runtime) => (await manage()).setStatus('paused')(input, runtime),
};

const resume: CommandSpec = {
  name: 'resume',
  summary: 'restart deliveries of a paused webhook (PATCH status "active")',
  description:
    'A webhook disabled after 3 failed deliveries is re-enabled in the dashboard, not here (mock: POST /__mock/webhooks/ID/enable).',
  args: ID_ARG,
  examples: ['news webhooks resume 2', 'news webhooks resume 2 -f table'],
  run: async (input, runtime) => (await manage()).setStatus('active')(input, runtime),
};

const remove: CommandSpec = {
  name: 'delete',
  summary: 'delete a webhook (DELETE /v1/webhooks/ID); asks first on a terminal',
  args: ID_ARG,
  options: [
    { flags: '-y, --yes', description: 'delete without asking (needed without a terminal)' },
  ],
  examples: ['news webhooks delete 2 --yes', 'news webhooks delete 1 --dry-run'],
  run: async (input, runtime) => (await manage()).deleteWebhook(input, runtime),
};

const verify: CommandSpec = {
  name: 'verify',
  summary: "check a delivery's signature and timestamp offline; exit 0 valid, 1 invalid",
  description:
    'HMAC-SHA256 with the secret over TIMESTAMP + "." + the raw body, compared in constant time, and TIMESTAMP within --tolerance seconds of now. The body is FILE, or stdin with - or no FILE.',
  args: [{ name: 'file', description: 'the raw body (- or none: stdin)', required: false }],
  // Offline, one line of verdict.
  globals: [],
  options: [
    { flags: '--secret <secret>', description: 'signing secret (env NEWS_WEBHOOK_SECRET)' },
    { flags: '--timestamp <t>', description: 'the X-Webhook-Timestamp value (Unix seconds)' },
    { flags: '--signature <sig>', description: 'the X-Webhook-Signature value (sha256=HEX)' },
    {
      flags: '--tolerance <seconds>',
      description: 'largest allowed age of the timestamp; 0: not checked (default 300)',
    },
  ],
  examples: [
    'news webhooks verify --secret "$SECRET" --timestamp "$T" --signature "$SIG" body.json',
    'cat body.json | NEWS_WEBHOOK_SECRET="$SECRET" news webhooks verify --timestamp "$T" --signature "$SIG" --tolerance 0',
  ],
  run: async (input, runtime) => (await import('./verify.js')).verifyDelivery(input, runtime),
};

const listen: CommandSpec = {
  name: 'listen',
  summary: 'a local receiver: verifies deliveries and prints their articles (jsonl)',
  description:
    "Prints its URL as the first line on stdout, then one record per delivered article, flushed per delivery. A bad or stale signature gets 401 and nothing is written; a delivery id already accepted gets 200 and is not written again. --forward-to passes each delivery on unchanged and answers with the local app's status. With --mock it subscribes itself to the built-in mock (filters from the flags), which publishes articles, so the whole loop runs offline.",
  params: FILTER_PARAMS,
  // It receives: --mock (and a mock key) start the offline loop; nothing is sent to the API.
  globals: ['api-key', 'mock', 'profile', ...OUTPUT],
  // Records as deliveries arrive: a format written at the end would hold nothing until Ctrl-C.
  formats: STREAMING_FORMATS,
  options: [
    {
      flags: '--secret <secret>',
      description: "signing secret (env NEWS_WEBHOOK_SECRET; --mock: the subscription's)",
    },
    {
      flags: '--host <host>',
      description: 'address to listen on (default 127.0.0.1: loopback only)',
    },
    { flags: '--port <n>', description: 'port; 0 picks a free one (default 4242)' },
    { flags: '--path <path>', description: 'the path deliveries are posted to (default /)' },
    { flags: '--forward-to <url>', description: 'pass every verified delivery on to this URL' },
    {
      flags: '--tolerance <seconds>',
      description: 'largest allowed age of a delivery timestamp; 0: not checked (default 300)',
    },
    { flags: '--max-deliveries <n>', description: 'stop after N accepted deliveries' },
    {
      flags: '--max-body <bytes>',
      description: 'largest accepted body, larger gets 413 (default 16 MiB)',
    },
    {
      flags: '--publish-rate <n>',
      description: 'with --mock: articles the mock publishes per minute (default 60)',
    },
  ],
  examples: [
    'news webhooks listen --mock --port 0 --publish-rate 600 --max-deliveries 3',
    'news webhooks listen --mock --port 0 --language-code en --max-deliveries 3 | tail -n +2 | jq -r .title',
    'news webhooks listen --secret "$SECRET" --port 8080 --forward-to http://localhost:3000/hooks',
  ],
  run: async (input, runtime) => (await import('./listen.js')).listen(input, runtime),
};

export const webhooks: CommandSpec = {
  name: 'webhooks',
  group: 'live',
  summary: 'manage webhooks, verify a delivery, or receive deliveries locally (listen)',
  subcommands: [list, get, update, pause, resume, remove, verify, listen],
};
