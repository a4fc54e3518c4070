// A vitest setup file (vitest.config.ts): runs in every test file, before
// the file is imported, so that its module-level temp folders land in its
// root too (scratch.ts).
import { afterAll } from 'vitest';
import { removeScratchRoot, tmpIntoScratch } from './scratch.js';

tmpIntoScratch();
afterAll(removeScratchRoot);
