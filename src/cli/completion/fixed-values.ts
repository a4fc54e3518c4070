/**
 * Fixed id lists the specification refers to: ISO 639-1 language codes
 * (`language.code`), ISO 3166-1 country codes (`source.country.code`) and the
 * IPTC media-topic taxonomy of `category.id` (`medtop:<digits>`). Used when the
 * completion tree is built, never on the Tab path.
 */
import type { Choice } from './types.js';

/** ISO 639-1, every two-letter code. */
const ISO_639_1 = `aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr
cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr
ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb
lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os
pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th
ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`.split(/\s+/);

/** The 17 top-level IPTC media topics; deeper ones share their first two digits. */
const IPTC_TOP: readonly Choice[] = [
  ['medtop:01000000', 'arts, culture, entertainment and media'],
  ['medtop:02000000', 'crime, law and justice'],
  ['medtop:03000000', 'disaster, accident and emergency incident'],
  ['medtop:04000000', 'economy, business and finance'],
  ['medtop:05000000', 'education'],
  ['medtop:06000000', 'environment'],
  ['medtop:07000000', 'health'],
  ['medtop:08000000', 'human interest'],
  ['medtop:09000000', 'labour'],
  ['medtop:10000000', 'lifestyle and leisure'],
  ['medtop:11000000', 'politics'],
  ['medtop:12000000', 'religion'],
  ['medtop:13000000', 'science and technology'],
  ['medtop:14000000', 'society'],
  ['medtop:15000000', 'sport'],
  ['medtop:16000000', 'conflict, war and peace'],
  ['medtop:17000000', 'weather'],
];

function displayNames(type: 'language' | 'region'): (code: string) => string {
  try {
    const names = new Intl.DisplayNames(['en'], { type });
    return (code) => names.of(code) ?? '';
  } catch {
    return () => '';
  }
}

export function languageChoices(): Choice[] {
  const name = displayNames('language');
  return ISO_639_1.map((code) => [code, name(code)]);
}

/**
 * ISO 3166-1 alpha-2 codes, as the runtime's ICU knows them: every pair of
 * letters that has an English region name (user-assigned and grouping codes
 * such as `EU` and `ZZ` left out).
 */
export function countryChoices(): Choice[] {
  const name = displayNames('region');
  const out: Choice[] = [];
  for (let a = 97; a <= 122; a++) {
    for (let b = 97; b <= 122; b++) {
      const code = String.fromCharCode(a, b);
      const upper = code.toUpperCase();
      const label = name(upper);
      if (label === '' || label === upper || /^(AA|Q[M-Z]|X[A-Z]|ZZ|EU|EZ|UN)$/.test(upper))
        continue;
      out.push([code, label]);
    }
  }
  return out;
}

/** `medtop:` to type on from, then the top-level topics; ids seen before come from the cache. */
export function categoryChoices(): Choice[] {
  return [['medtop:', 'IPTC media topic: medtop:<digits>'], ...IPTC_TOP];
}
