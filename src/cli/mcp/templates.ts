/**
 * Resource templates: one record an agent found earlier, read by id
 * (`news://people/{id}`) without a search. A read is the tool call that
 * reads that record (get_person, get_articles, …) through callTool, so it is
 * checked, budgeted and kept within the result size exactly as the tool is;
 * an id the service does not know is the protocol's resource-not-found error.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import type { CallContext, Session } from './call.js';

export interface ResourceTemplateInfo {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  /** The tool that reads one record, and how the id becomes its arguments. */
  readonly tool: { readonly name: string; readonly args: (id: string) => Record<string, unknown> };
}

export const RESOURCE_TEMPLATES: readonly ResourceTemplateInfo[] = [
  {
    uriTemplate: 'news://articles/{id}',
    name: 'article',
    title: 'An article by id',
    description: 'one article (get_articles), with the fields a search shows',
    mimeType: 'application/json',
    tool: { name: 'get_articles', args: (id) => ({ ids: [id] }) },
  },
  {
    uriTemplate: 'news://people/{id}',
    name: 'person',
    title: 'A person by id',
    description: 'one profile of the people directory (get_person)',
    mimeType: 'application/json',
    tool: { name: 'get_person', args: (id) => ({ id }) },
  },
  {
    uriTemplate: 'news://companies/{id}',
    name: 'company',
    title: 'A company by id',
    description: 'one profile of the companies directory (get_company)',
    mimeType: 'application/json',
    tool: { name: 'get_company', args: (id) => ({ id }) },
  },
  {
    uriTemplate: 'news://journalists/{id}',
    name: 'journalist',
    title: 'A journalist by id',
    description: 'one profile of the journalists directory (get_journalist)',
    mimeType: 'application/json',
    tool: { name: 'get_journalist', args: (id) => ({ id }) },
  },
];

/** The template a URI instantiates, or undefined. */
export function templateFor(uri: string): ResourceTemplateInfo | undefined {
  return RESOURCE_TEMPLATES.find((t) => {
    const prefix = t.uriTemplate.slice(0, t.uriTemplate.indexOf('{'));
    return uri.startsWith(prefix) && uri.length > prefix.length;
  });
}

function idOf(template: ResourceTemplateInfo, uri: string): string {
  const prefix = template.uriTemplate.slice(0, template.uriTemplate.indexOf('{'));
  const raw = uri.slice(prefix.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const NOT_FOUND = /^error: no \w+ found\b/;

function textOf(result: { content: { text: string }[] }): string {
  return result.content.map((c) => c.text).join('\n');
}

export async function readByTemplate(
  session: Session,
  template: ResourceTemplateInfo,
  uri: string,
  context: CallContext,
) {
  const id = idOf(template, uri);
  const binding = session.tools.find((t) => t.definition.name === template.tool.name);
  if (binding === undefined || id.includes('/')) throw new ResourceNotFoundError(uri);
  const { callTool } = await import('./call.js');
  const result = await callTool(session, binding, template.tool.args(id), context);
  const status = (result._meta['error'] as { status?: number } | undefined)?.status;
  if (result.isError === true) {
    // The directories answer an unknown id 404; the article endpoint answers
    // fewer records, which the command reports as "no article found".
    if (status === 404 || (status === undefined && NOT_FOUND.test(textOf(result)))) {
      throw new ResourceNotFoundError(uri);
    }
    // A value the tool refuses (an id of the wrong shape, the points budget)
    // is the caller's to fix; a failure of the service is the server's.
    throw new ProtocolError(
      status === undefined ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
      textOf(result),
      { uri },
    );
  }
  const { results, ...about } = result.structuredContent ?? {};
  const records = Array.isArray(results) ? results : [];
  if (records.length === 0) throw new ResourceNotFoundError(uri);
  return {
    contents: [{ uri, mimeType: template.mimeType, text: JSON.stringify(records[0]) }],
    // The points spent, and what the size budget cut, as the tool's result says them.
    _meta: { ...result._meta, ...about },
  };
}
