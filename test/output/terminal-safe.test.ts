import { describe, expect, it } from 'vitest';
import { isTerminalSafe, stripUnsafe, terminalSafe } from '../../src/output/terminal-safe.js';

describe('the terminal sanitiser', () => {
  it.each([
    ['clear screen', 'a\u001b[2Jb', 'ab'],
    ['colour', '\u001b[31mred\u001b[0m', 'red'],
    ['OSC title with BEL', 'x\u001b]0;pwned\u0007y', 'xy'],
    ['OSC 8 link with ST', '\u001b]8;;http://evil\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['unterminated OSC', 'ok\u001b]52;c;AAAA', 'ok'],
    ['C1 CSI', 'a\u009b2Jb', 'ab'],
    ['BEL and backspace', 'a\u0007b\u0008c', 'a b c'],
    ['CR and LF', 'one\r\nerror: two', 'one  error: two'],
    ['bidi override', 'abc\u202edcba\u202c', 'abcdcba'],
    ['bidi isolates and marks', '\u2066x\u2069\u200ey\u200f', 'xy'],
    ['line separator', 'a\u2028b', 'a b'],
    ['lone surrogate', 'a\ud800b', 'a\ufffdb'],
  ])('%s', (_name, input, expected) => {
    expect(stripUnsafe(input)).toBe(expected);
    expect(isTerminalSafe(stripUnsafe(input))).toBe(true);
  });

  it('leaves ordinary text, accents and emoji alone, and keeps spacing', () => {
    const text = 'Zürich  café 🎉  日本';
    expect(stripUnsafe(text)).toBe(text);
    expect(terminalSafe(text)).toBe('Zürich café 🎉 日本');
  });
});
