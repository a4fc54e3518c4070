/**
 * `news webhooks list|get|update|pause|resume|delete`: the /v1/webhooks calls.
 * The spec shows no response shapes; we accept the mock's (list
 * `{results:[…]}`, a bare array, or `{webhooks:[…]}`) and print whatever
 * fields the service sends. A 403 says which scope the key lacks.
 */
import { NewsError, PermissionError, ResponseError, UsageError } from '../../api/errors.js';
import type { RequestSpec } from '../../api/types.js';
import { buildRequestBody } from '../../params/validate.js';
import type { ApiRecord } from '../../output/types.js';
import type { CommandInput } from '../command-spec.js';
import { chooseFormat, terminalWidth } from '../export/export-pages.js';
import { redactKey } from '../redact-key.js';
import { MOCK_DEFAULT_KEY } from '../settings/settings.js';
import type { Runtime } from '../runtime/runtime.js';
import { exportList, writeSingle } from '../export/single-record.js';
import { confirmOnTerminal } from './confirm.js';
import { WEBHOOK_FILTER_PARAMS } from './filters.js';

type Scope = 'webhooks:read' | 'webhooks:write';

const ORDER = ['id', 'status', 'url', 'filters', 'api_key', 'mode', 'created_at', 'updated_at'];

/** A webhook id argument: a positive integer, checked before anything is sent. */
export function webhookId(value: string | undefined): string {
  const id = value?.trim() ?? '';
  if (!/^[1-9]\d{0,15}$/.test(id)) {
    throw new UsageError(`webhook id must be a positive integer, got "${value ?? ''}"`, {
      hint: 'see the ids with `news webhooks list`',
    });
  }
  return id;
}

/** Sends one call; a 403 names the scope the call needs. */
async function call<T>(runtime: Runtime, spec: RequestSpec, scope: Scope): Promise<T | null> {
  if (runtime.settings.mock) {
    // The in-process mock starts empty: give it the example webhooks (ids 1 and 2).
    runtime.mockOptions = {
      ...runtime.mockOptions,
      exampleWebhooksFor: runtime.settings.apiKey ?? MOCK_DEFAULT_KEY,
    };
  }
  try {
    const response = await runtime.send<T>(spec);
    return response === null ? null : response.body;
  } catch (error) {
    if (error instanceof PermissionError) {
      error.hint = `this call needs the ${scope} scope (${scope === 'webhooks:read' ? 'GET on webhooks' : 'PATCH and DELETE on webhooks'}); give the key that scope in the dashboard, or use another key`;
      if (!error.message.includes(scope))
        error.message = `${error.message} (missing scope ${scope})`;
    }
    throw error;
  }
}

/** The key the subscription bills may be echoed back; it never reaches output whole. */
function clean(record: ApiRecord): ApiRecord {
  const out = { ...record };
  if (typeof out['api_key'] === 'string') out['api_key'] = redactKey(out['api_key']);
  delete out['secret'];
  return out;
}

function webhooksOf(body: unknown): ApiRecord[] {
  if (Array.isArray(body)) return body as ApiRecord[];
  if (typeof body === 'object' && body !== null) {
    const envelope = body as { results?: unknown; webhooks?: unknown; data?: unknown };
    const list = envelope.results ?? envelope.webhooks ?? envelope.data;
    if (Array.isArray(list)) return list as ApiRecord[];
  }
  throw new ResponseError('the webhook list response holds no list of webhooks');
}

function asRecord(body: unknown, what: string): ApiRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ResponseError(`the ${what} response is not a webhook object`);
  return body as ApiRecord;
}

export async function listWebhooks(_input: CommandInput, runtime: Runtime): Promise<void> {
  const body = await call<unknown>(
    runtime,
    { method: 'GET', path: '/v1/webhooks' },
    'webhooks:read',
  );
  if (body === null) return;
  const records = webhooksOf(body).map(clean);
  if (records.length === 0) runtime.report.notice('no webhooks on this account');
  const table =
    (await chooseFormat(runtime)) === 'table' &&
    runtime.settings.fields === undefined &&
    runtime.settings.output === undefined;
  if (table) {
    const { webhookTable } = await import('./table.js');
    await runtime.write(webhookTable(records, terminalWidth(runtime)));
    return;
  }
  await exportList(runtime, records, 'generic', 'news webhooks list');
}

export async function getWebhook(input: CommandInput, runtime: Runtime): Promise<void> {
  const id = webhookId(input.args[0]);
  const body = await call<unknown>(
    runtime,
    { method: 'GET', path: `/v1/webhooks/${id}` },
    'webhooks:read',
  );
  if (body === null) return;
  await writeSingle(runtime, clean(asRecord(body, 'get')), `news webhooks get ${id}`, ORDER);
}

async function patch(
  runtime: Runtime,
  id: string,
  body: Record<string, unknown>,
  title: string,
): Promise<void> {
  const answer = await call<unknown>(
    runtime,
    { method: 'PATCH', path: `/v1/webhooks/${id}`, body },
    'webhooks:write',
  );
  if (answer === null) return;
  await writeSingle(runtime, clean(asRecord(answer, 'update')), title, ORDER);
}

/**
 * `update ID [--url U] [filter flags]`: the filter flags are checked by the
 * search parameter table (same rules as `news search`) and replace the
 * subscription's whole filter set; without filter flags the filters stay.
 */
export async function updateWebhook(input: CommandInput, runtime: Runtime): Promise<void> {
  const id = webhookId(input.args[0]);
  const body: Record<string, unknown> = {};
  const url = input.options['url'];
  if (typeof url === 'string') {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
    }
    body['url'] = url;
  }
  if (input.params.length > 0) {
    const lookup = (name: string) => WEBHOOK_FILTER_PARAMS.find((d) => d.name === name);
    body['filters'] = buildRequestBody(input.params, { now: runtime.io.now(), lookup });
  }
  if (Object.keys(body).length === 0) {
    throw new UsageError('nothing to update: give --url and/or search filter flags', {
      hint: 'e.g. `news webhooks update 3 --language-code en --title "rate cut"`; pause/resume change the status',
    });
  }
  await patch(runtime, id, body, `news webhooks update ${id}`);
}

export function setStatus(status: 'active' | 'paused') {
  return async (input: CommandInput, runtime: Runtime): Promise<void> => {
    const id = webhookId(input.args[0]);
    await patch(
      runtime,
      id,
      { status },
      `news webhooks ${status === 'active' ? 'resume' : 'pause'} ${id}`,
    );
  };
}

/**
 * `delete ID`: asks on a terminal; `--yes` skips the question. Without a
 * terminal to ask on and without --yes it refuses (exit 2): a script must
 * say what it means, it is never left waiting on a prompt.
 */
export async function deleteWebhook(input: CommandInput, runtime: Runtime): Promise<void> {
  const id = webhookId(input.args[0]);
  if (input.options['yes'] !== true && !runtime.settings.dryRun) {
    const confirmed = await confirmOnTerminal(
      runtime.io,
      `Delete webhook ${id}? Deliveries to it stop and this cannot be undone. [y/N] `,
      {
        refusal: `refusing to delete webhook ${id} without confirmation: no terminal to ask on`,
        hint: 'pass --yes to delete from a script',
      },
    );
    if (!confirmed) throw new NewsError(`cancelled: webhook ${id} was not deleted`);
  }
  const answer = await call<unknown>(
    runtime,
    { method: 'DELETE', path: `/v1/webhooks/${id}` },
    'webhooks:write',
  );
  if (answer === null) return;
  runtime.report.notice(`deleted webhook ${id}`);
  const record =
    typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? (answer as ApiRecord)
      : { id: Number(id), deleted: true };
  await writeSingle(runtime, clean(record), `news webhooks delete ${id}`, ['id', 'deleted']);
}
