/**
 * The code lists the specification names, declared once: ISO 639-1 language
 * codes (`language.code`) and ISO 3166-1 alpha-2 country codes
 * (`source.country.code`, local's `country`). The client refuses a code
 * that does not exist before sending, with a did-you-mean (`uk` → `gb`,
 * `english` → `en`, `germany` → `de`: the English names are data below);
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

/** The English name of a code (the first of NAMES), '' for a code without one. */
export function codeName(kind: CodeKind, code: string): string {
  return nameTables()[kind].names.get(code.toLowerCase())?.[0] ?? '';
}

/**
 * What to say about a code that does not exist: the code meant (`uk` →
 * `gb (United Kingdom)`, `english` → `en (English)`, `germany` → `de
 * (Germany)`), or that it is a code or a name of the other kind, or nothing.
 */
export function suggestCode(kind: CodeKind, value: string): string | undefined {
  const code = value.toLowerCase();
  const meant = ALIASES[kind][code] ?? codeOfName(kind, value);
  if (meant !== undefined) {
    const name = codeName(kind, meant);
    return `did you mean ${meant}${name === '' ? '' : ` (${name})`}?`;
  }
  const other: CodeKind = kind === 'language' ? 'country' : 'language';
  if (isCode(other, code)) {
    const name = codeName(other, code);
    return `${code} is the ${CODE_STANDARD[other]}${name === '' ? '' : ` of ${name}`}`;
  }
  const otherCode = codeOfName(other, value);
  if (otherCode !== undefined) {
    return `"${value}" is ${other === 'country' ? 'a country' : 'a language'} (${CODE_STANDARD[other]} ${otherCode}), not ${kind === 'country' ? 'a country' : 'a language'}`;
  }
  return undefined;
}

/**
 * English names, as data (not the runtime's ICU, which a small-icu Node
 * lacks): `code Name;Other name|…`, the first name the one shown. Parsed on
 * first use only: start-up reads none of it; a wrong code or completion's
 * build does.
 */
const NAMES: Readonly<Record<CodeKind, string>> = {
  language: `
aa Afar|ab Abkhazian|ae Avestan|af Afrikaans|ak Akan|am Amharic|an Aragonese|ar Arabic|as Assamese|
av Avaric|ay Aymara|az Azerbaijani|ba Bashkir|be Belarusian|bg Bulgarian|bi Bislama|bm Bambara|
bn Bangla;Bengali|bo Tibetan|br Breton|bs Bosnian|ca Catalan;Valencian|ce Chechen|ch Chamorro|
co Corsican|cr Cree|cs Czech|cu Church Slavic;Old Church Slavonic|cv Chuvash|cy Welsh|da Danish|
de German|dv Divehi;Maldivian;Dhivehi|dz Dzongkha|ee Ewe|el Greek;Modern Greek|en English|
eo Esperanto|es Spanish;Castilian|et Estonian|eu Basque|fa Persian;Farsi|ff Fula;Fulah;Fulani|
fi Finnish|fj Fijian|fo Faroese|fr French|fy Western Frisian;Frisian|ga Irish;Gaelic Irish|
gd Scottish Gaelic;Gaelic|gl Galician|gn Guarani|gu Gujarati|gv Manx|ha Hausa|he Hebrew|
hi Hindi;Hindustani|ho Hiri Motu|hr Croatian|ht Haitian Creole;Haitian|hu Hungarian|hy Armenian|
hz Herero|ia Interlingua|id Indonesian|ie Interlingue|ig Igbo|ii Sichuan Yi;Nuosu|ik Inupiaq|
io Ido|is Icelandic|it Italian|iu Inuktitut|ja Japanese|jv Javanese|ka Georgian|kg Kongo|
ki Kikuyu;Gikuyu|kj Kuanyama|kk Kazakh|kl Kalaallisut;Greenlandic|km Khmer;Cambodian|kn Kannada|
ko Korean|kr Kanuri|ks Kashmiri|ku Kurdish|kv Komi|kw Cornish|ky Kyrgyz;Kirghiz|la Latin|
lb Luxembourgish;Letzeburgesch|lg Ganda|li Limburgish;Limburgan|ln Lingala|lo Lao|lt Lithuanian|
lu Luba-Katanga|lv Latvian|mg Malagasy|mh Marshallese|mi Māori|mk Macedonian|ml Malayalam|
mn Mongolian|mr Marathi|ms Malay;Malaysian|mt Maltese|my Burmese|na Nauru|
nb Norwegian Bokmål;Bokmal|nd North Ndebele|ne Nepali|ng Ndonga|nl Dutch;Flemish|
nn Norwegian Nynorsk;Nynorsk|no Norwegian|nr South Ndebele|nv Navajo|ny Nyanja;Chichewa|oc Occitan|
oj Ojibwa|om Oromo|or Odia;Oriya|os Ossetic;Ossetian|pa Punjabi;Panjabi|pi Pali|pl Polish|
ps Pashto;Pushto|pt Portuguese|qu Quechua|rm Romansh|rn Rundi|ro Romanian|ru Russian|
rw Kinyarwanda|sa Sanskrit|sc Sardinian|sd Sindhi|se Northern Sami;Sami|sg Sango|
si Sinhala;Sinhalese|sk Slovak|sl Slovenian;Slovene|sm Samoan|sn Shona|so Somali|sq Albanian|
sr Serbian;Serbo-Croatian|ss Swati;Swazi|st Southern Sotho;Sesotho|su Sundanese|sv Swedish|
sw Swahili|ta Tamil|te Telugu|tg Tajik|th Thai|ti Tigrinya|tk Turkmen|tl Filipino;Tagalog|
tn Tswana;Setswana|to Tongan|tr Turkish|ts Tsonga|tt Tatar|tw Twi|ty Tahitian|ug Uyghur;Uighur|
uk Ukrainian;Ukranian|ur Urdu|uz Uzbek|ve Venda|vi Vietnamese|vo Volapük|wa Walloon|wo Wolof|
xh Xhosa|yi Yiddish|yo Yoruba|za Zhuang|zh Chinese;Mandarin|zu Zulu`,
  country: `
ad Andorra|ae United Arab Emirates;UAE;Emirates|af Afghanistan|ag Antigua & Barbuda|ai Anguilla|
al Albania|am Armenia|ao Angola|aq Antarctica|ar Argentina|as American Samoa|at Austria|
au Australia|aw Aruba|ax Åland Islands|az Azerbaijan|ba Bosnia & Herzegovina;Bosnia|bb Barbados|
bd Bangladesh|be Belgium|bf Burkina Faso|bg Bulgaria|bh Bahrain|bi Burundi|bj Benin|
bl St. Barthélemy|bm Bermuda|bn Brunei|bo Bolivia|bq Caribbean Netherlands|br Brazil|bs Bahamas|
bt Bhutan|bv Bouvet Island|bw Botswana|by Belarus|bz Belize|ca Canada|cc Cocos (Keeling) Islands|
cd Congo - Kinshasa;Democratic Republic of the Congo;DR Congo;DRC|cf Central African Republic|
cg Congo - Brazzaville;Republic of the Congo;Congo|ch Switzerland|ci Côte d’Ivoire;Ivory Coast|
ck Cook Islands|cl Chile|cm Cameroon|cn China|co Colombia|cr Costa Rica|cu Cuba|
cv Cape Verde;Cabo Verde|cw Curaçao|cx Christmas Island|cy Cyprus|cz Czechia;Czech Republic|
de Germany|dj Djibouti|dk Denmark|dm Dominica|do Dominican Republic|dz Algeria|ec Ecuador|
ee Estonia|eg Egypt|eh Western Sahara|er Eritrea|es Spain|et Ethiopia|fi Finland|fj Fiji|
fk Falkland Islands|fm Micronesia;Federated States of Micronesia|fo Faroe Islands|fr France|
ga Gabon|gb United Kingdom;UK;Great Britain;Britain;England;Scotland;Wales;Northern Ireland|
gd Grenada|ge Georgia|gf French Guiana|gg Guernsey|gh Ghana|gi Gibraltar|gl Greenland|gm Gambia|
gn Guinea|gp Guadeloupe|gq Equatorial Guinea|gr Greece|gs South Georgia & South Sandwich Islands|
gt Guatemala|gu Guam|gw Guinea-Bissau|gy Guyana|hk Hong Kong SAR China;Hong Kong|
hm Heard & McDonald Islands|hn Honduras|hr Croatia|ht Haiti|hu Hungary|id Indonesia|ie Ireland|
il Israel|im Isle of Man|in India|io British Indian Ocean Territory|iq Iraq|ir Iran|is Iceland|
it Italy|je Jersey|jm Jamaica|jo Jordan|jp Japan|ke Kenya|kg Kyrgyzstan|kh Cambodia|ki Kiribati|
km Comoros|kn St. Kitts & Nevis|kp North Korea|kr South Korea;Korea;Republic of Korea|kw Kuwait|
ky Cayman Islands|kz Kazakhstan|la Laos|lb Lebanon|lc St. Lucia|li Liechtenstein|lk Sri Lanka|
lr Liberia|ls Lesotho|lt Lithuania|lu Luxembourg|lv Latvia|ly Libya|ma Morocco|mc Monaco|
md Moldova|me Montenegro|mf St. Martin|mg Madagascar|mh Marshall Islands|
mk North Macedonia;Macedonia|ml Mali|mm Myanmar (Burma);Myanmar;Burma|mn Mongolia|
mo Macao SAR China;Macao;Macau|mp Northern Mariana Islands|mq Martinique|mr Mauritania|
ms Montserrat|mt Malta|mu Mauritius|mv Maldives|mw Malawi|mx Mexico|my Malaysia|mz Mozambique|
na Namibia|nc New Caledonia|ne Niger|nf Norfolk Island|ng Nigeria|ni Nicaragua|
nl Netherlands;Holland|no Norway|np Nepal|nr Nauru|nu Niue|nz New Zealand|om Oman|pa Panama|
pe Peru|pf French Polynesia|pg Papua New Guinea|ph Philippines|pk Pakistan|pl Poland|
pm St. Pierre & Miquelon|pn Pitcairn Islands|pr Puerto Rico|ps Palestinian Territories;Palestine|
pt Portugal|pw Palau|py Paraguay|qa Qatar|re Réunion|ro Romania|rs Serbia|
ru Russia;Russian Federation|rw Rwanda|sa Saudi Arabia;KSA|sb Solomon Islands|sc Seychelles|
sd Sudan|se Sweden|sg Singapore|sh St. Helena|si Slovenia|sj Svalbard & Jan Mayen|sk Slovakia|
sl Sierra Leone|sm San Marino|sn Senegal|so Somalia|sr Suriname|ss South Sudan|
st São Tomé & Príncipe|sv El Salvador|sx Sint Maarten|sy Syria|sz Eswatini;Swaziland|
tc Turks & Caicos Islands|td Chad|tf French Southern Territories|tg Togo|th Thailand|tj Tajikistan|
tk Tokelau|tl Timor-Leste;East Timor|tm Turkmenistan|tn Tunisia|to Tonga|tr Türkiye;Turkey|
tt Trinidad & Tobago|tv Tuvalu|tw Taiwan|tz Tanzania|ua Ukraine|ug Uganda|um U.S. Outlying Islands|
us United States;USA;United States of America;America|uy Uruguay|uz Uzbekistan|
va Vatican City;Vatican;Holy See|vc St. Vincent & Grenadines|ve Venezuela|
vg British Virgin Islands|vi U.S. Virgin Islands|vn Vietnam;Viet Nam|vu Vanuatu|wf Wallis & Futuna|
ws Samoa|ye Yemen|yt Mayotte|za South Africa|zm Zambia|zw Zimbabwe`,
};

interface NameTable {
  /** Code → its names, the first shown. */
  readonly names: ReadonlyMap<string, readonly string[]>;
  /** Normalised name → code. */
  readonly codes: ReadonlyMap<string, string>;
}

let tables: Readonly<Record<CodeKind, NameTable>> | undefined;

function nameTables(): Readonly<Record<CodeKind, NameTable>> {
  const table = (text: string): NameTable => {
    const names = new Map<string, readonly string[]>();
    const codes = new Map<string, string>();
    for (const entry of text.replace(/\|\n/g, '|').trim().split('|')) {
      const code = entry.slice(0, 2);
      const list = entry.slice(3).split(';');
      names.set(code, list);
      for (const name of list) codes.set(normalise(name), code);
    }
    return { names, codes };
  };
  tables ??= { language: table(NAMES.language), country: table(NAMES.country) };
  return tables;
}

/** `Côte d’Ivoire`, `cote d'ivoire` and `Cote D Ivoire` alike; `St.` is `Saint`, `&` is `and`. */
function normalise(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bst\b/g, 'saint')
    .replace(/^the /, '')
    .trim();
}

/** The code a name stands for: exactly, or one typo away for names of five letters or more. */
function codeOfName(kind: CodeKind, value: string): string | undefined {
  const typed = normalise(value);
  if (typed === '') return undefined;
  const { codes } = nameTables()[kind];
  const exact = codes.get(typed);
  if (exact !== undefined || typed.length < 5) return exact;
  const near = new Set<string>();
  for (const [name, code] of codes) if (oneEditApart(typed, name)) near.add(code);
  return near.size === 1 ? [...near][0] : undefined;
}

/** One insertion, deletion or substitution between a and b. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = (x: string, y: string) => x.slice(i + 1) === y.slice(i + 1);
  if (a.length === b.length) return rest(a, b);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
