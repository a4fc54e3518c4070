/**
 * `json`: one JSON array over all pages, one record per line, so the whole
 * result never sits in memory (and `news convert` reads it back line by
 * line). `jsonl`/`ndjson`: one record per line.
 */
import { encoderSpec } from '../format-writer.js';
import type { EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import { projectRecord } from '../flatten.js';
import type { PageEncoder } from '../text-writer.js';
import { textWriter } from '../text-writer.js';
import type { ApiRecord } from '../types.js';

function shaper(spec: EncoderSpec): (r: ApiRecord) => ApiRecord {
  return spec.projected ? (r) => projectRecord(r, spec.columns) : (r) => r;
}

/** Each record as `,\n{…}`: the writer leaves out the first comma. */
export function jsonEncoder(spec: EncoderSpec): PageEncoder {
  const shape = shaper(spec);
  return (records) => {
    let text = '';
    for (const record of records) text += ',\n' + JSON.stringify(shape(record));
    return text;
  };
}

export function jsonLinesEncoder(spec: EncoderSpec): PageEncoder {
  const shape = shaper(spec);
  return (records) => {
    let text = '';
    for (const record of records) text += JSON.stringify(shape(record)) + '\n';
    return text;
  };
}

export function createJsonWriter(ctx: WriterContext): Promise<FormatWriter> {
  const spec = encoderSpec(ctx, 'json');
  return textWriter(ctx, spec, jsonEncoder(spec), {
    header: '[',
    footer: (wrote) => (wrote ? '\n]\n' : ']\n'),
    separatorLength: 1,
  });
}

export function createJsonLinesWriter(
  ctx: WriterContext,
  format: 'jsonl' | 'ndjson',
): Promise<FormatWriter> {
  const spec = encoderSpec(ctx, format);
  return textWriter(ctx, spec, jsonLinesEncoder(spec), {
    header: '',
    footer: () => '',
  });
}
