import { MockHttpError } from '../error-envelope.js';
import { sha256FirstByte } from '../node-crypto.js';
import { sourceOf } from '../search/row.js';
import { tokenize } from '../search/text.js';
import type { FixtureStore } from '../store/fixture-store.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';

/**
 * `POST /v1/fact-check` (openapi only), answered by rules rather than a model:
 * claims are the sentences of the input (an article's title and body, raw
 * text, or the one claim); the evidence for a claim is the fixture articles
 * whose titles share the most words with it; each piece of evidence takes a
 * stance drawn from a hash of claim and article (stable across runs), and the
 * verdict follows from the stances. So the same request always gets the same
 * answer, in the document's shape, with real article ids to follow up.
 *
 * Limits from the document: `text` 100–10,000 characters, `claim` 5–500; no
 * input, or one out of range → 400; an unknown `id` → 404. `max_claims` and
 * `evidence_per_claim` are capped at 10 ("capped server-side"). Not on the
 * Free plan (403). Cost: 1 point per checked claim (the document gives none).
 */
export const FACT_CHECK_CAP = 10;
const DEFAULT_CLAIMS = 5;
const DEFAULT_EVIDENCE = 5;

type Verdict =
  | 'true'
  | 'mostly_true'
  | 'mixed'
  | 'misleading'
  | 'mostly_false'
  | 'false'
  | 'unverified'
  | 'outdated';
type Stance = 'supports' | 'refutes' | 'neutral';

const STOP = new Set(
  'the a an of to in on for and or but is are was were be been by with at from as that this it its has have had will would not no'.split(
    ' ',
  ),
);

function bad(message: string): never {
  throw new MockHttpError(400, undefined, message);
}

/** A whole number in [1, cap] from the body, the default when absent. */
function bounded(params: Params, name: string, fallback: number): number {
  const raw = params[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) bad(`${name} must be a whole number of at least 1.`);
  return Math.min(n, FACT_CHECK_CAP);
}

function text(params: Params, name: string, min: number, max: number): string | undefined {
  const raw = params[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') bad(`${name} must be a string.`);
  const value = raw.trim();
  if (value.length < min || value.length > max)
    bad(`${name} must be ${min} to ${max} characters (got ${value.length}).`);
  return value;
}

function sentences(value: string): string[] {
  return value
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 5 && /\p{L}/u.test(s));
}

export function factCheck(store: FixtureStore, params: Params, ctx: SearchContext): EngineResult {
  if (ctx.plan === 'Free') {
    throw new MockHttpError(403, undefined, 'Fact-checking is not available on the Free plan.');
  }
  const maxClaims = bounded(params, 'max_claims', DEFAULT_CLAIMS);
  const perClaim = bounded(params, 'evidence_per_claim', DEFAULT_EVIDENCE);
  let type: 'id' | 'text' | 'claim';
  let language = 'en';
  let claims: string[];
  if (params['id'] !== undefined) {
    // The id takes priority over text and claim (openapi).
    const id = Number(params['id']);
    if (!Number.isSafeInteger(id) || id < 1) bad('id must be a positive integer article id.');
    const article = store.article(id);
    if (article === undefined)
      throw new MockHttpError(404, undefined, `Article with the id ${id} was not found.`);
    type = 'id';
    language = article.language;
    claims = sentences(`${article.title}.\n${article.body}`);
  } else {
    const body = text(params, 'text', 100, 10_000);
    const claim = text(params, 'claim', 5, 500);
    if (body !== undefined) {
      type = 'text';
      claims = sentences(body);
    } else if (claim !== undefined) {
      type = 'claim';
      claims = [claim];
    } else {
      bad('Send one of id, text (100–10000 characters) or claim (5–500 characters).');
    }
  }
  const checked = claims.slice(0, maxClaims).map((c) => checkClaim(store, c, perClaim, ctx));
  const breakdown: Record<string, number> = {};
  for (const c of checked) breakdown[c.verdict] = (breakdown[c.verdict] ?? 0) + 1;
  const overall = overallVerdict(checked.map((c) => c.verdict));
  const confidence =
    checked.length === 0
      ? 0
      : round(checked.reduce((sum, c) => sum + c.confidence, 0) / checked.length);
  return {
    body: {
      status: 'ok',
      request_id: ctx.requestId,
      input: { type, language },
      summary: {
        overall_verdict: overall,
        overall_confidence: confidence,
        claims_total: claims.length,
        claims_checked: checked.length,
        verdict_breakdown: breakdown,
      },
      claims: checked,
    },
    points: ctx.mode === 'test' ? 0 : Math.max(1, checked.length),
  };
}

function checkClaim(store: FixtureStore, claim: string, perClaim: number, ctx: SearchContext) {
  const words = new Set(tokenize(claim).filter((w) => w.length > 2 && !STOP.has(w)));
  // The claim's words as the table's word ids: titles are compared as id lists.
  const t = store.table;
  const wanted = new Set<number>();
  for (const w of words) {
    const id = t.dict.words.find(w);
    if (id !== undefined) wanted.add(id);
  }
  const scored: { row: number; id: number; overlap: number }[] = [];
  const seen = new Set<number>();
  for (const row of t.order) {
    seen.clear();
    for (let i = t.titleWords.from(row); i < t.titleWords.to(row); i++) {
      const w = t.titleWord.data[i] as number;
      if (wanted.has(w)) seen.add(w);
    }
    if (seen.size > 0) scored.push({ row, id: t.id.data[row] as number, overlap: seen.size });
  }
  scored.sort((a, b) => b.overlap - a.overlap || b.id - a.id);
  const evidence = scored.slice(0, perClaim).map(({ row, overlap }) => {
    const article = store.json.article(row);
    const stance = stanceOf(claim, article.id);
    return {
      article_id: article.id,
      title: article.title,
      url: article.href,
      source: article.source.domain,
      source_authority: Math.round(sourceOf(t, row).rankings.opr),
      published_at: article.published_at,
      snippet: article.description.slice(0, 200),
      stance,
      relevance: round(Math.min(1, overlap / Math.max(1, words.size))),
    };
  });
  const verdict = verdictOf(evidence.map((e) => e.stance));
  const confidence =
    evidence.length === 0
      ? 0.2
      : round(0.4 + 0.5 * (evidence.reduce((s, e) => s + e.relevance, 0) / evidence.length));
  return {
    claim,
    normalized_claim: claim.replace(/\s+/g, ' ').replace(/[.!?]+$/, ''),
    checkworthy: words.size >= 2,
    verdict,
    confidence,
    as_of: ctx.now.toISOString().slice(0, 10),
    explanation:
      evidence.length === 0
        ? 'No article in the corpus addresses this claim.'
        : `${evidence.filter((e) => e.stance === 'supports').length} of ${evidence.length} related articles support the claim and ${evidence.filter((e) => e.stance === 'refutes').length} refute it.`,
    evidence,
  };
}

function stanceOf(claim: string, articleId: number): Stance {
  const byte = sha256FirstByte(`${claim}\u0000${articleId}`);
  return byte < 128 ? 'supports' : byte < 192 ? 'neutral' : 'refutes';
}

function verdictOf(stances: readonly Stance[]): Verdict {
  const supports = stances.filter((s) => s === 'supports').length;
  const refutes = stances.filter((s) => s === 'refutes').length;
  if (supports + refutes === 0) return 'unverified';
  const share = supports / (supports + refutes);
  if (share === 1) return 'true';
  if (share >= 0.7) return 'mostly_true';
  if (share > 0.3) return 'mixed';
  if (share > 0) return 'mostly_false';
  return 'false';
}

function overallVerdict(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.length === 0) return 'unverified';
  const counts = new Map<Verdict, number>();
  for (const v of verdicts) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

const round = (n: number): number => Math.round(n * 100) / 100;
