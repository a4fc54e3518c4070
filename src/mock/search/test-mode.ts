import type { Article } from '../fixtures/article-types.js';

/** Suffix of every truncated text in test mode (spec: "a marker saying a live key is needed"). */
export const TEST_MODE_MARKER = '… [truncated: a live API key is needed for the full content]';
/** Characters of a text field kept in test mode. */
export const TEST_MODE_PREVIEW = 100;
/** /v1/news/count answers at most this in test mode. */
export const TEST_MODE_COUNT_CAP = 100;
/** Replaces each trend value in test mode; the numbers stay. */
export const TEST_MODE_TREND_VALUE = '[test mode: a live API key is needed for trend values]';

/** Every text gets the marker, short or not, so a client can always tell a preview. */
function truncate(text: string): string {
  return `${text.slice(0, TEST_MODE_PREVIEW).trimEnd()}${TEST_MODE_MARKER}`;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Cutting HTML mid-tag would break it: the preview is the truncated plain text in one paragraph. */
function truncateHtml(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `<p>${escapeHtml(truncate(text))}</p>`;
}

/**
 * The article a test key sees: same structure, long texts cut to a preview with
 * the marker. Title and ids stay so results can be told apart.
 */
export function testModeArticle(article: Article): Article {
  const en = article.translations.en;
  return {
    ...article,
    description: truncate(article.description),
    body: truncate(article.body),
    body_html: truncateHtml(article.body_html),
    translations: {
      en: {
        title: en.title,
        description: en.description === null ? null : truncate(en.description),
      },
    },
    summary: article.summary.map((s) => ({ ...s, sentence: truncate(s.sentence) })),
  };
}
