/**
 * Prompts: the news tasks agents and people ask for most, as messages that
 * name the tools and arguments to use, so the model composes its calls from
 * the right place. Each argument's values complete (completions.ts).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { closestNames } from '../../output/closest-name.js';

export interface PromptArgumentInfo {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
}

interface PromptInfo {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgumentInfo[];
  readonly text: (a: Readonly<Record<string, string>>) => string;
}

const PERIOD: PromptArgumentInfo = {
  name: 'period',
  description:
    'how far back: a relative date (-24h, -7d, -30d) or a YYYY-MM-DD start (default -24h)',
};
const LANGUAGE: PromptArgumentInfo = {
  name: 'language',
  description: 'ISO 639-1 language code of the articles (e.g. en)',
};

/** The arguments of a search over the period, as the agent should pass them. */
function window(a: Readonly<Record<string, string>>): string {
  const start = a['period'] || '-24h';
  const language = a['language'] ? `, "language.code": ["${a['language']}"]` : '';
  return `"published_at.start": "${start}"${language}`;
}

const PROMPTS: readonly PromptInfo[] = [
  {
    name: 'news_briefing',
    title: 'Briefing on a topic',
    description: 'a briefing on a topic over a period: the main stories, who is in them, the tone',
    arguments: [
      {
        name: 'topic',
        description: 'the topic: free words, or a topic id (economy.inflation)',
        required: true,
      },
      PERIOD,
      LANGUAGE,
      { name: 'sort', description: 'how to rank the articles read (sort.by; default relevance)' },
    ],
    text: (a) =>
      [
        `Write a briefing on "${a['topic']}" for the period from ${a['period'] || '-24h'} until now.`,
        `1. Call search_news with {"query": ${JSON.stringify(a['topic'])}, ${window(a)}${a['sort'] ? `, "sort.by": "${a['sort']}"` : ''}, "limit": 30} (if the topic looks like economy.inflation, pass it as "topic.id" instead of "query").`,
        '2. Group the articles into the few stories they tell (get_story reads a story by id); call count_news for how much coverage each got.',
        '3. For each story: what happened, who is involved (people and organizations named in the articles), and the tone (sentiment.overall.polarity).',
        'Cite each claim with the article href. Say what the period had too little coverage to tell.',
      ].join('\n'),
  },
  {
    name: 'entity_coverage',
    title: 'Coverage and sentiment of an entity',
    description:
      'how much a person, company or other entity was covered over a period, and in what tone',
    arguments: [
      { name: 'entity', description: 'the entity: a person or organization name', required: true },
      PERIOD,
      LANGUAGE,
      {
        name: 'sentiment',
        description: 'look only at coverage of this polarity (positive, negative, neutral)',
      },
    ],
    text: (a) =>
      [
        `Describe the news coverage of "${a['entity']}" from ${a['period'] || '-24h'} until now.`,
        `1. Find the entity: suggest_entities with {"prefix": ${JSON.stringify(a['entity'])}} (or list_people / list_companies by name) for its id.`,
        `2. Count its coverage with count_news, and once per polarity with "sentiment.overall.polarity" set to positive, negative and neutral, each with {${window(a)}} and the entity as "person.name" or "organization.name".`,
        `3. Read the articles with search_news (same filters${a['sentiment'] ? `, "sentiment.overall.polarity": "${a['sentiment']}"` : ''}, "limit": 20) and get_entity_news for the entity's own feed.`,
        'Report the volume, the share of each polarity, the main themes and the sources that covered it most, citing article hrefs.',
      ].join('\n'),
  },
  {
    name: 'compare_coverage',
    title: 'How two sources or countries covered a story',
    description: 'compare the coverage of one story by two sources (domains) or two countries',
    arguments: [
      {
        name: 'story',
        description: 'the story: free words or a query of the query language',
        required: true,
      },
      {
        name: 'first',
        description: 'a source domain (bbc.co.uk) or a country code (gb)',
        required: true,
      },
      { name: 'second', description: 'another source domain or country code', required: true },
      PERIOD,
    ],
    text: (a) => {
      const side = (value = '') =>
        /^[a-z]{2}$/i.test(value)
          ? `"source.country.code": ["${value.toLowerCase()}"]`
          : `"source.domain": ["${value}"]`;
      return [
        `Compare how ${a['first']} and ${a['second']} covered "${a['story']}" from ${a['period'] || '-7d'} until now.`,
        `1. Call search_news twice with {"query": ${JSON.stringify(a['story'])}, "published_at.start": "${a['period'] || '-7d'}", "limit": 25}, once with {${side(a['first'])}} and once with {${side(a['second'])}}; count_news with the same filters gives each side's volume.`,
        '2. Compare: how much each covered it, when, the angle and framing of the titles, the tone (sentiment.overall.polarity), who is quoted or named.',
        'Cite the articles by href; say where one side has too few articles to compare.',
      ].join('\n');
    },
  },
];

export function listPrompts() {
  return PROMPTS.map(({ text: _text, arguments: args, ...info }) => ({
    ...info,
    arguments: args.map((a) => ({ ...a })),
  }));
}

export function promptArguments(name: string): readonly PromptArgumentInfo[] | undefined {
  return PROMPTS.find((p) => p.name === name)?.arguments;
}

export function getPrompt(name: string, args: Readonly<Record<string, string>>) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (prompt === undefined) {
    const close = closestNames(
      name,
      PROMPTS.map((p) => p.name),
    );
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `unknown prompt ${name}${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''}`,
    );
  }
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim());
  if (missing.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `prompt ${name} needs ${missing.map((a) => a.name).join(' and ')}`,
    );
  }
  return {
    description: prompt.description,
    messages: [
      { role: 'user' as const, content: { type: 'text' as const, text: prompt.text(args) } },
    ],
  };
}
