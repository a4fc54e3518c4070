/**
 * The value rules of the settings a profile may hold, shared by the global
 * flags (settings.ts) and the config file's schema (config-file.ts), so that
 * `config set format yaml` is refused with the rule `--format yaml` gets.
 * Plain functions: this file is on every command's start-up path.
 */
import { apiKeyProblem, trimApiKey } from '../../api/api-key.js';
import { MAX_CONCURRENCY } from '../../api/paging/concurrency.js';
import { FORMAT_NAMES } from '../../output/formats.js';
import { TIMEOUT_RULE, timeoutMs } from './limits.js';

/** Settings a profile may hold; each is also a global flag or environment variable. */
export const CONFIG_KEYS = [
  'api-key',
  'base-url',
  'auth',
  'format',
  'timeout',
  'retries',
  'concurrency',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export const AUTH_METHODS = ['header', 'bearer', 'query'] as const;

/** The flag each setting stands for, used when a flag's value breaks a rule. */
export const FLAG_OF: Readonly<Record<ConfigKey, string>> = {
  'api-key': '--api-key',
  'base-url': '--base-url',
  auth: '--auth',
  format: '--format',
  timeout: '--timeout',
  retries: '--retries',
  concurrency: '--concurrency',
};

function nonNegative(value: string, integer: boolean): string | undefined {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    return `must be a ${integer ? 'whole number' : 'number'} of at least 0`;
  }
  return undefined;
}

/** Each setting's rule: undefined when `value` is fine, else what it must be. */
export const SETTING_CHECKS: Readonly<Record<ConfigKey, (value: string) => string | undefined>> = {
  'api-key': (v) => {
    const key = trimApiKey(v);
    if (key === undefined) return 'must not be empty';
    const problem = apiKeyProblem(key);
    return problem === undefined ? undefined : `contains ${problem}`;
  },
  'base-url': (v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'http:' || url.protocol === 'https:'
        ? undefined
        : 'must be an http or https URL';
    } catch {
      return 'must be an absolute URL';
    }
  },
  auth: (v) =>
    (AUTH_METHODS as readonly string[]).includes(v)
      ? undefined
      : `must be one of ${AUTH_METHODS.join(', ')}`,
  format: (v) =>
    (FORMAT_NAMES as readonly string[]).includes(v)
      ? undefined
      : `must be one of ${FORMAT_NAMES.join(', ')}`,
  timeout: (v) => (timeoutMs(v) === undefined ? TIMEOUT_RULE : undefined),
  retries: (v) => nonNegative(v, true),
  concurrency: (v) => (concurrencyOf(v) === undefined ? CONCURRENCY_RULE : undefined),
};

const CONCURRENCY_RULE = `must be a whole number from 1 to ${MAX_CONCURRENCY}, or auto`;

/** `--concurrency`: pages fetched at once, or `auto` (the client adapts; also what overrides a profile's number). */
export function concurrencyOf(value: string): number | 'auto' | undefined {
  const text = value.trim();
  if (text === 'auto') return 'auto';
  const n = Number(text);
  return text !== '' && Number.isInteger(n) && n >= 1 && n <= MAX_CONCURRENCY ? n : undefined;
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}
