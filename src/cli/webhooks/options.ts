/** Option checks shared by `webhooks verify` and `webhooks listen`, done before anything starts. */
import { UsageError } from '../../api/errors.js';

/** The environment variable that can hold the signing secret (keeps it out of `ps` and shell history). */
export const SECRET_ENV = 'NEWS_WEBHOOK_SECRET';
export const DEFAULT_TOLERANCE = 300;

export function secretFrom(
  options: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
  required = true,
): string {
  const given = options['secret'];
  const secret = typeof given === 'string' ? given : env[SECRET_ENV];
  if (secret === undefined || secret === '') {
    if (!required) return '';
    throw new UsageError('the signing secret is required', {
      hint: `pass --secret S or set ${SECRET_ENV} (the secret is shown once, when the webhook is created)`,
    });
  }
  return secret;
}

/** `--tolerance SECONDS`: a whole number ≥ 0; 0 turns the timestamp check off. */
export function toleranceFrom(options: Readonly<Record<string, unknown>>): number {
  return wholeNumber(options, 'tolerance', DEFAULT_TOLERANCE, 0, 10 * 365 * 86_400);
}

export function wholeNumber(
  options: Readonly<Record<string, unknown>>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  // Commander's key for `--max-body` is `maxBody`.
  const raw = options[name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
  if (raw === undefined) return fallback;
  const text = String(raw).trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max}, got "${String(raw)}"`,
    );
  }
  return value;
}
