import type { CommandSpec } from '../command-spec.js';
import { balance } from './balance.js';
import { config } from './config.js';
import { convert } from './convert.js';
import { count } from './count.js';
import { eventTypes } from './event-types.js';
import { mock } from './mock-serve.js';
import { ping } from './ping.js';
import { query } from './query.js';
import { search } from './search.js';

/** Every command, in the order `news --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  search,
  count,
  eventTypes,
  balance,
  ping,
  query,
  convert,
  config,
  mock,
];
