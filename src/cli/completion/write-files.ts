/**
 * `npm run completions`: writes completions/ (news.bash, _news, news.fish,
 * news.ps1) for packagers. A test fails when they differ from
 * `news completion SHELL`.
 */
import { writeFileSync } from 'node:fs';
import { SHELLS, SHELL_FILES, completionScript } from './scripts.js';

for (const shell of SHELLS) {
  writeFileSync(
    new URL(`../../../completions/${SHELL_FILES[shell]}`, import.meta.url),
    completionScript(shell),
  );
}
