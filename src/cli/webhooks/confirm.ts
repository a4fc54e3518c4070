/**
 * A yes/no question for destructive commands. Asked only when stdin is a
 * terminal (the question goes to stderr, so stdout stays data); without one
 * it never waits: it fails as a usage error telling the script what to pass.
 */
import { createInterface } from 'node:readline';
import { UsageError } from '../../api/errors.js';
import type { CliIO } from '../runtime/io.js';

export async function confirmOnTerminal(
  io: CliIO,
  question: string,
  noTerminal: { refusal: string; hint: string },
): Promise<boolean> {
  if (io.stdin.isTTY !== true) throw new UsageError(noTerminal.refusal, { hint: noTerminal.hint });
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(question);
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      // End of input (Ctrl-D) is a "no".
      rl.once('close', () => resolve(''));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
