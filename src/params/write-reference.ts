import { writeFileSync } from 'node:fs';
import { renderParameterReference } from './reference.js';

// `npm run docs`: regenerates docs/PARAMETERS.md from the parameter table.
const target = new URL('../../docs/PARAMETERS.md', import.meta.url);
writeFileSync(target, renderParameterReference());
process.stdout.write(`wrote ${target.pathname}\n`);
