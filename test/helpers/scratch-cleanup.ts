// A vitest setup file (vitest.config.ts): runs in every test file.
import { afterAll } from 'vitest';
import { removeScratchRoot } from './scratch.js';

afterAll(removeScratchRoot);
