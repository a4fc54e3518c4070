import { NotFoundError } from '../../api/errors.js';
import { UsageError } from '../../api/errors.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import type { CommandInput } from '../command-spec.js';
import { chooseFormat, terminalWidth } from '../export/export-pages.js';
import { refuseWithRaw } from '../runtime/raw-check.js';
import type { Runtime } from '../runtime/runtime.js';
import { exportList, writeSingle } from '../export/single-record.js';
import type { DirectoryKind } from '../views/profile-card.js';
import { numericId } from './article-feed.js';
import { thousands } from '../../output/text.js';

export const SINGULAR: Readonly<Record<DirectoryKind, string>> = {
  people: 'person',
  companies: 'company',
  journalists: 'journalist',
};

/** Where each `--section` lives in a profile, and whether it is part of the coverage block. */
const SECTIONS: Readonly<
  Record<string, { key: string; coverage: boolean; kinds: readonly DirectoryKind[] }>
> = {
  timeline: { key: 'timeline', coverage: true, kinds: ['people', 'companies', 'journalists'] },
  'top-sources': { key: 'top_sources', coverage: true, kinds: ['people', 'companies'] },
  'top-topics': {
    key: 'top_topics',
    coverage: true,
    kinds: ['people', 'companies', 'journalists'],
  },
  'top-countries': {
    key: 'top_countries',
    coverage: true,
    kinds: ['people', 'companies', 'journalists'],
  },
  'top-languages': {
    key: 'top_languages',
    coverage: true,
    kinds: ['people', 'companies', 'journalists'],
  },
  'related-entities': { key: 'related_entities', coverage: true, kinds: ['people', 'companies'] },
  'top-entities': { key: 'top_entities', coverage: true, kinds: ['journalists'] },
  'recent-articles': {
    key: 'recent_articles',
    coverage: false,
    kinds: ['people', 'companies', 'journalists'],
  },
  outlets: { key: 'outlets', coverage: false, kinds: ['journalists'] },
};

export function sectionsOf(kind: DirectoryKind): string[] {
  return Object.entries(SECTIONS)
    .filter(([, s]) => s.kinds.includes(kind))
    .map(([name]) => name);
}

/** The options of `people get`, `companies get` and `journalists get`, as commander hands them over. */
export type ProfileOptions = {
  readonly raw?: boolean;
  /** false with --no-coverage. */
  readonly coverage?: boolean;
  readonly section?: string;
};

/** `people get ID`: the profile card on a terminal, the JSON object in a pipe, or one `--section` in any format. */
export async function showProfile(
  kind: DirectoryKind,
  input: CommandInput<ProfileOptions>,
  runtime: Runtime,
): Promise<void> {
  const what = SINGULAR[kind];
  const id = numericId(input.args[0], `the ${what} id`);
  const withCoverage = input.options.coverage !== false;
  const sectionName = input.options.section;
  const section = sectionName === undefined ? undefined : SECTIONS[sectionName];
  if (sectionName !== undefined && (section === undefined || !section.kinds.includes(kind))) {
    throw new UsageError(`--section ${sectionName} is not a part of a ${what} profile`, {
      hint: `sections: ${sectionsOf(kind).join(', ')}`,
    });
  }
  if (section?.coverage && !withCoverage) {
    throw new UsageError(
      `--section ${sectionName} is in the coverage block, which --no-coverage drops`,
    );
  }

  const spec = {
    method: 'GET',
    path: `/v1/${kind}/${id}`,
    ...(withCoverage ? {} : { query: { coverage: 'false' } }),
  } as const;
  if (input.options.raw === true) refuseWithRaw(runtime.settings, undefined);
  if (runtime.settings.dryRun) return runtime.printDryRun(spec);
  const client = await runtime.client();
  const fetch = async <T>(raw: boolean) => {
    try {
      return raw
        ? await client.request<string>({ ...spec, raw: true, signal: runtime.signal })
        : await client.request<T>({ ...spec, signal: runtime.signal });
    } catch (error) {
      throw error instanceof NotFoundError ? notFound(error, what, id, kind) : error;
    }
  };
  if (input.options.raw === true) {
    const response = await fetch<string>(true);
    return runtime.write(`${String(response.body)}\n`);
  }
  const response = await fetch<ApiRecord>(false);
  const profile = (
    typeof response.body === 'object' && response.body !== null ? response.body : {}
  ) as ApiRecord;

  if (section !== undefined) {
    const container = section.coverage ? (profile['coverage'] as ApiRecord | undefined) : profile;
    const value = container?.[section.key];
    const records = Array.isArray(value) ? (value as ApiRecord[]) : [];
    if (records.length === 0) runtime.report.notice(`the profile has no ${sectionName}`);
    const recordKind: RecordKind = section.key === 'recent_articles' ? 'article' : 'generic';
    return exportList(
      runtime,
      records,
      recordKind,
      `news ${kind} get ${id} --section ${sectionName}`,
    );
  }

  if (kind === 'journalists') await journalistHints(profile, id, runtime);
  const format = await chooseFormat(runtime);
  const { output, fields } = runtime.settings;
  if (format === 'table' && output === undefined && fields === undefined) {
    // Imported here: the views draw with cli-table3, which `news --help` must not load.
    const { renderProfileCard } = await import('../views/profile-card.js');
    return runtime.write(renderProfileCard(profile, kind, terminalWidth(runtime)));
  }
  // Into a database, a profile goes to its directory's table (people, …), merged by id.
  await writeSingle(runtime, profile, `news ${kind} get ${id}`, [], SINGULAR[kind] as RecordKind);
}

function notFound(
  error: NotFoundError,
  what: string,
  id: string,
  kind: DirectoryKind,
): NotFoundError {
  // ER0151 is the specification's "person, company or journalist not found"; any 404 here means the same.
  return new NotFoundError(error.status, `no ${what} with id ${id}`, {
    code: error.code ?? 'ER0151',
    requestId: error.requestId,
    details: error.details,
    hint: `find ids with \`news ${kind} --name TEXT\``,
  });
}

/**
 * The specification's journalist caveats, where they bite: profile counts merge
 * every author record with the name, links.articles searches one. With -v the
 * difference is measured (one count request); without, the card says it.
 */
async function journalistHints(profile: ApiRecord, id: string, runtime: Runtime): Promise<void> {
  const coverage = profile['coverage'] as { article_count?: unknown } | undefined;
  const total = coverage?.article_count;
  if (!runtime.report.verbose || typeof total !== 'number') return;
  const client = await runtime.client();
  const response = await client.request<{ count?: unknown }>({
    method: 'POST',
    path: '/v1/news/count',
    body: { 'author.id': id },
    signal: runtime.signal,
  });
  const own = response.body.count;
  if (response.mode === 'test' || typeof own !== 'number') return;
  if (own < total) {
    runtime.report.notice(
      `article_count ${thousands(total)} merges every author record named "${String(profile['name'])}"; links.articles (author.id=${id}) finds ${thousands(own)}`,
    );
  } else {
    runtime.report.debug(`links.articles (author.id=${id}) finds all ${thousands(own)} articles`);
  }
}
