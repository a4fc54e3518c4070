/** `npm run docs:cli`: writes docs/news.1 and docs/HELP-TOPICS.md (see docs.ts). */
import { writeFileSync } from 'node:fs';
import { docsProgram, helpTopicsMarkdown, manPage } from './docs.js';

const program = docsProgram();
writeFileSync(new URL('../../../docs/news.1', import.meta.url), manPage(program));
writeFileSync(
  new URL('../../../docs/HELP-TOPICS.md', import.meta.url),
  helpTopicsMarkdown(program),
);
