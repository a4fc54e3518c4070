import type { CommandSpec } from './command-spec.js';
import { completion } from './completion/command.js';
import { article } from './commands/article.js';
import { balance } from './commands/balance.js';
import { config } from './commands/config.js';
import { convert } from './commands/convert.js';
import { count } from './commands/count.js';
import { companies, journalists, people } from './commands/directory.js';
import { entity } from './commands/entity.js';
import { eventTypes } from './commands/event-types.js';
import { factCheck } from './commands/fact-check.js';
import { headlines } from './commands/headlines.js';
import { local } from './commands/local.js';
import { mcpCommand } from './mcp/command.js';
import { mock } from './commands/mock-serve.js';
import { ping } from './commands/ping.js';
import { query } from './commands/query.js';
import { raw } from './commands/raw.js';
import { search } from './commands/search.js';
import { story } from './commands/story.js';
import { stream } from './stream/stream.js';
import { suggest } from './commands/suggest.js';
import { trends } from './commands/trends.js';
import { webhooks } from './webhooks/webhooks.js';

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
