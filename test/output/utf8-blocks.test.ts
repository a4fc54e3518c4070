import { describe, expect, it } from 'vitest';
import { Utf8Blocks } from '../../src/output/formats/utf8-blocks.js';

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('Utf8Blocks', () => {
  it('keeps every value intact across blocks, huge values and a reset', () => {
    const blocks = new Utf8Blocks();
    // ~1.2 MB of text in values of varied length: several 256 KB blocks.
    const texts = Array.from({ length: 400 }, (_, i) => `${i} Москва 🎉 ${'x'.repeat(i * 7)}`);
    texts.push('h'.repeat(400_000)); // more than a block on its own
    texts.push('lone \uD83D surrogate');
    const handles = texts.map((t) => blocks.add(t));
    const views = handles.map((h) => blocks.view(h));
    expect(views.map(decode)).toEqual(texts.map((t) => t.replace('\uD83D', '\uFFFD')));

    blocks.reset();
    const again = texts.slice(0, 50).map((t) => blocks.view(blocks.add(`again ${t}`)));
    expect(again.map(decode)).toEqual(texts.slice(0, 50).map((t) => `again ${t}`));
    // The first views share the reused blocks: after a reset they may change.
    expect(decode(views[0]!)).not.toBe(texts[0]);
  });
});
