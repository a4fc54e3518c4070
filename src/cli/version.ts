import { createRequire } from 'node:module';

// Read once from package.json so `news --version` and the user agent never drift.
const require = createRequire(import.meta.url);
export const VERSION: string = (require('../../package.json') as { version: string }).version;
