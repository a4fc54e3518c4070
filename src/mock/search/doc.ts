import { entityAliases } from './aliases.js';
import type { Article, PolarityOrEmpty } from '../fixtures/types.js';
import { indexedAtMs } from '../indexed-at.js';
import { tokenize } from './text.js';
import type { Doc, DocEntity, DocImage, DocPlace, Polarity } from './types.js';

/** `medtop:04000000` in filters is category id 4000000 in articles. */
export function categorySlug(id: number): string {
  return `medtop:${String(id).padStart(8, '0')}`;
}

/** The fixtures always set a polarity; the schema allows '' (unknown), read from the score then. */
function polarity(value: PolarityOrEmpty, score: number): Polarity {
  if (value !== '') return value;
  return score > 0.1 ? 'positive' : score < -0.1 ? 'negative' : 'neutral';
}

function entityOf(e: Article['entities'][number]): DocEntity {
  return {
    id: e.id,
    name: e.name,
    nameLower: e.name.toLowerCase(),
    nameTokens: tokenize(e.name),
    aliasTokens: entityAliases(e.metadata).map(tokenize),
    type: e.type,
    frequency: e.frequency,
    score: e.sentiment.score,
    polarity: polarity(e.sentiment.polarity, e.sentiment.score),
  };
}

function placesOf(article: Article): DocPlace[] {
  const places: DocPlace[] = [];
  for (const l of article.locations_mentioned) {
    if (l.lat === null || l.lng === null) continue;
    const nameLower = l.name.toLowerCase();
    const entity = article.entities.find(
      (e) => e.type === 'location' && e.name.toLowerCase() === nameLower,
    );
    places.push({
      name: l.name,
      nameLower,
      country: l.country,
      lat: l.lat,
      lng: l.lng,
      entityId: entity?.id ?? null,
    });
  }
  return places;
}

/** Indexes one article; `publishedMs` comes from the store's parallel array. */
export function toDoc(article: Article, publishedMs: number, ix = -1): Doc {
  const images: DocImage[] = [];
  let videoCount = 0;
  for (const m of article.media) {
    if (m.type === 'image') images.push({ width: m.width, height: m.height });
    else videoCount++;
  }
  const s = article.sentiment;
  return {
    ix,
    source: article,
    id: article.id,
    title: article.title,
    titleLower: article.title.toLowerCase(),
    titleTokens: tokenize(article.title),
    description: article.description,
    body: article.body,
    publishedAt: publishedMs,
    // Fixtures are indexed when published; a posted article when it was posted.
    createdAt: indexedAtMs(article) ?? publishedMs,
    language: article.language.toLowerCase(),
    sourceId: article.source.id,
    sourceDomain: article.source.domain.toLowerCase(),
    sourceCountry: article.source.location.country_code.toLowerCase(),
    sourceBias: article.source.bias,
    sourceRank: article.source.rankings.opr,
    isPremiumSource: article.source.is_premium,
    isVerifiedSource: article.source.is_verified,
    categoryIds: article.categories.map((c) => categorySlug(c.id)),
    topicIds: article.topics.map((t) => t.id.toLowerCase()),
    industryIds: article.industries.map((i) => String(i.id)),
    entities: article.entities.map(entityOf),
    eventTypes: article.events.map((e) => e.type),
    eventCategories: article.events.map((e) => e.category),
    sentimentOverall: s.overall.score,
    sentimentTitle: s.title.score,
    sentimentBody: s.body.score,
    polarityOverall: polarity(s.overall.polarity, s.overall.score),
    polarityTitle: polarity(s.title.polarity, s.title.score),
    polarityBody: polarity(s.body.polarity, s.body.score),
    isClickbait: article.is_clickbait,
    images,
    videoCount,
    fkGrade: article.readability.flesch_kincaid_grade,
    ease: article.readability.flesch_reading_ease,
    ari: article.readability.automated_readability_index,
    difficulty: article.readability.difficulty_level,
    audience: article.readability.target_audience,
    readingAge: article.readability.reading_age,
    readTime: article.read_time,
    sentencesCount: article.sentences_count,
    paragraphsCount: article.paragraphs_count,
    charactersCount: article.characters_count,
    wordsCount: article.words_count,
    places: placesOf(article),
    isDuplicate: article.is_duplicate,
    isPaywall: !article.is_free,
    isBreaking: article.is_breaking,
    isFree: article.is_free,
    authorId: article.author.id,
    authorName: article.author.name,
    sharesFacebook: article.shares.facebook,
    sharesTwitter: article.shares.twitter,
    sharesReddit: article.shares.reddit,
    storyId: article.story.id,
  };
}
