/**
 * node:crypto, loaded on first use: it brings about twenty of Node's own
 * modules, and a `--mock` command that makes no webhook, opens no stream and
 * checks no fact never needs it. (Synchronous callers, hence `require`.)
 */
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');

let loaded: Crypto | undefined;

function crypto(): Crypto {
  loaded ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return loaded;
}

/** `bytes` random bytes as hex (ids, secrets). */
export function randomHex(bytes: number): string {
  return crypto().randomBytes(bytes).toString('hex');
}

/** The first byte of the SHA-256 of `text`. */
export function sha256FirstByte(text: string): number {
  return crypto().createHash('sha256').update(text).digest()[0] as number;
}
