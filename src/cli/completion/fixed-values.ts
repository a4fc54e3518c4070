/**
 * Fixed id lists the specification refers to: the ISO code lists of
 * src/params/codes.ts (the same the client checks values against) and the
 * IPTC media-topic taxonomy of `category.id` (`medtop:<digits>`). Used when the
 * completion tree is built, never on the Tab path.
 */
import { COUNTRY_CODES, type CodeKind, LANGUAGE_CODES, codeName } from '../../params/codes.js';
import type { Choice } from './types.js';

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

/** Every code of a list (src/params/codes.ts), with its English name where the runtime knows it. */
export function codeChoices(kind: CodeKind): Choice[] {
  const codes = kind === 'language' ? LANGUAGE_CODES : COUNTRY_CODES;
  return codes.map((code) => [code, codeName(kind, code)]);
}

/** `medtop:` to type on from, then the top-level topics; ids seen before come from the cache. */
export function categoryChoices(): Choice[] {
  return [['medtop:', 'IPTC media topic: medtop:<digits>'], ...IPTC_TOP];
}
