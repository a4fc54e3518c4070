/**
 * XML: a declared root (`<articles>`, `<people>`, … `<records>`) holding one
 * element per record. XMLBuilder runs once per record and its text goes to
 * the sink between a hand-written header and footer, so memory stays flat.
 */
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { projectRecord } from '../flatten.js';
import type { RecordKind } from '../types.js';
import { xmlText } from '../text.js';
import { toXmlNode } from './xml-shape.js';
import type { XmlNode } from './xml-shape.js';

const NAMES: Record<RecordKind, [string, string]> = {
  article: ['articles', 'article'],
  person: ['people', 'person'],
  company: ['companies', 'company'],
  journalist: ['journalists', 'journalist'],
  generic: ['records', 'record'],
};

export async function createXmlWriter(ctx: WriterContext): Promise<FormatWriter> {
  const { XMLBuilder } = await import('fast-xml-parser');
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    suppressBooleanAttributes: false,
    suppressEmptyNode: true,
    // toXmlNode escapes every text and attribute value itself.
    processEntities: false,
    format: true,
    indentBy: '  ',
  });
  const [root, element] = NAMES[ctx.kind];
  await ctx.sink.write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n`,
  );
  return {
    async writePage(records) {
      let chunk = '';
      for (const r of records) {
        const record = ctx.projected ? projectRecord(r, ctx.columns) : r;
        let node = toXmlNode(record, element) as { [key: string]: XmlNode | XmlNode[] };
        // The id is the record's identity: an attribute, as in <article id="42">.
        const id = record['id'];
        if (typeof id === 'number' || typeof id === 'string') {
          const { id: _id, ...rest } = node;
          node = { '@_id': xmlText(String(id)), ...rest };
        }
        chunk += builder.build({ [element]: node });
      }
      await ctx.sink.write(chunk);
    },
    async finish() {
      await ctx.sink.write(`</${root}>\n`);
    },
  };
}
