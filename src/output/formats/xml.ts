/**
 * XML: a declared root (`<articles>`, `<people>`, … `<records>`) holding one
 * element per record. XMLBuilder runs once per record; pages of records go
 * to the sink between a hand-written header and footer, so memory stays flat.
 */
import { encoderSpec } from '../format-writer.js';
import type { EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import { projectRecord } from '../flatten.js';
import type { PageEncoder } from '../text-writer.js';
import { textWriter } from '../text-writer.js';
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

async function builder(): Promise<{ build(node: unknown): string }> {
  const { XMLBuilder } = await import('fast-xml-parser');
  return new XMLBuilder({
    ignoreAttributes: false,
    suppressBooleanAttributes: false,
    suppressEmptyNode: true,
    // toXmlNode escapes every text and attribute value itself.
    processEntities: false,
    format: true,
    indentBy: '  ',
  });
}

export async function xmlEncoder(spec: EncoderSpec): Promise<PageEncoder> {
  const xml = await builder();
  const element = NAMES[spec.kind][1];
  return (records) => {
    let page = '';
    for (const r of records) {
      const record = spec.projected ? projectRecord(r, spec.columns) : r;
      let node = toXmlNode(record, element) as { [key: string]: XmlNode | XmlNode[] };
      // The id is the record's identity: an attribute, as in <article id="42">.
      const id = record['id'];
      if (typeof id === 'number' || typeof id === 'string') {
        const { id: _id, ...rest } = node;
        node = { '@_id': xmlText(String(id)), ...rest };
      }
      page += xml.build({ [element]: node });
    }
    return page;
  };
}

export async function createXmlWriter(ctx: WriterContext): Promise<FormatWriter> {
  const root = NAMES[ctx.kind][0];
  const spec = encoderSpec(ctx, 'xml');
  return textWriter(ctx, spec, await xmlEncoder(spec), {
    header: `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n`,
    footer: () => `</${root}>\n`,
  });
}
