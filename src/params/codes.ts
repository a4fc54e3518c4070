/**
 * The code lists the specification names, declared once: ISO 639-1 language
 * codes (`language.code`) and ISO 3166-1 alpha-2 country codes
 * (`source.country.code`, local's `country`). The client refuses a code
 * that does not exist before sending, with a did-you-mean (`uk` → `gb`);
 * completion offers these lists; the mock, lenient like the service,
 * silently drops a filter whose code does not exist (values.ts).
 * Case does not matter (`EN` is `en`).
 */

export type CodeKind = 'language' | 'country';

/** ISO 639-1: the 183 two-letter codes in use (the withdrawn iw, in, ji, jw, mo, sh are aliases below). */
const LANGUAGES = `aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr
cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr
ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb
lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os
pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th
ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`;

/** ISO 3166-1 alpha-2: the 249 officially assigned codes (no user-assigned XA–XZ, no reserved UK, EU). */
const COUNTRIES = `ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn
bo bq br bs bt bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do
dz ec ee eg eh er es et fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy
hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb
lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na
nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa
sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt
tv tw tz ua ug um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw`;

const words = (text: string): readonly string[] => text.split(/\s+/).filter((w) => w !== '');

export const LANGUAGE_CODES: readonly string[] = words(LANGUAGES);
export const COUNTRY_CODES: readonly string[] = words(COUNTRIES);

/**
 * Codes people type for another: a country's code for its language, the
 * old ISO 639 codes, the EU's and the UK's own spellings. Only suggestions:
 * nothing is rewritten behind the user's back.
 */
const ALIASES: Readonly<Record<CodeKind, Readonly<Record<string, string>>>> = {
  language: {
    al: 'sq',
    at: 'de',
    br: 'pt',
    by: 'be',
    cn: 'zh',
    cz: 'cs',
    dk: 'da',
    gb: 'en',
    ge: 'ka',
    gr: 'el',
    il: 'he',
    in: 'id',
    ir: 'fa',
    iw: 'he',
    ji: 'yi',
    jp: 'ja',
    jw: 'jv',
    kr: 'ko',
    kz: 'kk',
    mo: 'ro',
    mx: 'es',
    pk: 'ur',
    rs: 'sr',
    se: 'sv',
    sh: 'sr',
    tw: 'zh',
    ua: 'uk',
    us: 'en',
    vn: 'vi',
  },
  country: {
    ar: 'ae',
    da: 'dk',
    el: 'gr',
    en: 'gb',
    he: 'il',
    ja: 'jp',
    ko: 'kr',
    sv: 'se',
    uk: 'gb',
    vi: 'vn',
    zh: 'cn',
  },
};

const SETS: Readonly<Record<CodeKind, ReadonlySet<string>>> = {
  language: new Set(LANGUAGE_CODES),
  country: new Set(COUNTRY_CODES),
};

export const CODE_STANDARD: Readonly<Record<CodeKind, string>> = {
  language: 'ISO 639-1 language code',
  country: 'ISO 3166-1 alpha-2 country code',
};

export function isCode(kind: CodeKind, value: string): boolean {
  return SETS[kind].has(value.toLowerCase());
}

/** The English name of a code, when the runtime's ICU knows it; '' otherwise. */
export function codeName(kind: CodeKind, code: string): string {
  try {
    const names = new Intl.DisplayNames(['en'], {
      type: kind === 'language' ? 'language' : 'region',
    });
    const name = names.of(kind === 'language' ? code : code.toUpperCase()) ?? '';
    return name.toLowerCase() === code.toLowerCase() ? '' : name;
  } catch {
    return '';
  }
}

/**
 * What to say about a code that does not exist: the code meant (`uk` →
 * `gb (United Kingdom)`), or that it is a code of the other kind, or nothing.
 */
export function suggestCode(kind: CodeKind, value: string): string | undefined {
  const code = value.toLowerCase();
  const meant = ALIASES[kind][code];
  if (meant !== undefined) {
    const name = codeName(kind, meant);
    return `did you mean ${meant}${name === '' ? '' : ` (${name})`}?`;
  }
  const other: CodeKind = kind === 'language' ? 'country' : 'language';
  if (isCode(other, code)) {
    const name = codeName(other, code);
    return `${code} is the ${CODE_STANDARD[other]}${name === '' ? '' : ` of ${name}`}`;
  }
  return undefined;
}
