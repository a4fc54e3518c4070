import type { CommandSpec } from '../command-spec.js';
import { completion } from '../completion/command.js';
import { article } from './article.js';
import { balance } from './balance.js';
import { config } from '../settings/config-command.js';
import { convert } from './convert.js';
import { count } from './count.js';
import { companies, journalists, people } from './directory.js';
import { entity } from './entity.js';
import { eventTypes } from './event-types.js';
import { factCheck } from './fact-check.js';
import { headlines } from './headlines.js';
import { local } from './local.js';
import { mcpCommand } from '../mcp/command.js';
import { mock } from './mock-serve.js';
import { ping } from './ping.js';
import { query } from './query.js';
import { raw } from './raw.js';
import { search } from './search.js';
import { story } from './story.js';
import { stream } from '../stream/stream.js';
import { suggest } from './suggest.js';
import { trends } from './trends.js';
import { webhooks } from '../webhooks/webhooks.js';

/** Every command, in the order `news --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  search,
  count,
  headlines,
  story,
  article,
  trends,
  local,
  entity,
  raw,
  factCheck,
  eventTypes,
  suggest,
  stream,
  people,
  companies,
  journalists,
  webhooks,
  balance,
  ping,
  query,
  convert,
  config,
  mock,
  // Its tools are made from this list, read when it runs.
  mcpCommand(() => COMMANDS),
  completion,
];
