/**
 * Words that name a kind of place, in the languages the reference inventories are written in (as
 * name tokens: folded to ASCII, lower case, canonical spellings from text.ts), grouped by kind.
 *
 * A name that is another's name plus a word for a *different* kind of place is a different place:
 * a part of it or a neighbour ("Cashew Heights", homes, and "Cashew Heights Gym", sport; "Tuas
 * Naval Base" and "Tuas Naval Base Medical Centre"). A word for the *same* kind, or a kind added to
 * a name that says no kind of its own, is a category tail the sources add or leave out ("Hotel
 * Grand" and "Grand Hotel Inn", "Sheng Siong" and "Sheng Siong Supermarket").
 */

const KINDS: Record<string, readonly string[]> = {
  lodging: [
    'hotel',
    'inn',
    'resort',
    'hostel',
    'motel',
    'lodge',
    'suite',
    'guesthouse',
    'aparthotel',
    'bnb',
    'homestay',
    'auberge',
    'albergo',
    'pousada',
    'ryokan',
  ],
  // Not park, garden, tower, place, view, court: too often part of a proper name ("Park Hotel", "Raffles Place").
  homes: [
    'residence',
    'apartment',
    'condo',
    'condominium',
    'heights',
    'estate',
    'villa',
    'mansion',
    'manor',
    'terrace',
    'residenz',
    'residencia',
  ],
  food: [
    'restaurant',
    'restaurante',
    'ristorante',
    'cafe',
    'coffee',
    'kopi',
    'kopitiam',
    'bar',
    'pub',
    'bistro',
    'brasserie',
    'eatery',
    'kitchen',
    'grill',
    'diner',
    'trattoria',
    'pizzeria',
    'bakery',
    'patisserie',
    'teahouse',
    'canteen',
    'foodcourt',
    'hawker',
    'market',
    'marche',
    'mercado',
    'mercato',
    'markt',
    'pasar',
  ],
  shop: [
    'supermarket',
    'minimart',
    'mall',
    'shop',
    'store',
    'salon',
    'barber',
    'laundry',
    'laundromat',
    'pharmacy',
    'pharmacie',
    'apotheke',
    'farmacia',
  ],
  health: [
    'clinic',
    'polyclinic',
    'medical',
    'hospital',
    'dental',
    'dentist',
    'surgery',
    'clinique',
    'hopital',
    'klinik',
    'krankenhaus',
    'clinica',
    'ospedale',
    'ziekenhuis',
    'kliniek',
  ],
  sport: [
    'gym',
    'fitness',
    'pool',
    'swimming',
    'stadium',
    'pitch',
    'field',
    'sauna',
    'piscine',
    'gymnase',
    'schwimmbad',
    'fitnessstudio',
    'turnhalle',
    'piscina',
    'gimnasio',
    'palestra',
    'ginasio',
    'zwembad',
    'sportschool',
    'kolam',
    'tennis',
    'badminton',
    'basketball',
    'futsal',
    'squash',
  ],
  play: ['playground', 'spielplatz', 'speeltuin'],
  learning: [
    'school',
    'kindergarten',
    'preschool',
    'childcare',
    'college',
    'campus',
    'library',
    'ecole',
    'lycee',
    'schule',
    'grundschule',
    'escuela',
    'colegio',
    'scuola',
    'escola',
    'basisschool',
    'sekolah',
  ],
  worship: ['church', 'chapel', 'temple', 'mosque', 'masjid', 'surau', 'eglise', 'kirche', 'iglesia', 'chiesa', 'igreja', 'kerk'],
  transport: [
    'station',
    'terminal',
    'platform',
    'interchange',
    'depot',
    'pier',
    'jetty',
    'wharf',
    'busstop',
    'gare',
    'arret',
    'bahnhof',
    'haltestelle',
    'estacion',
    'parada',
    'stazione',
    'fermata',
    'estacao',
    'paragem',
    'bushalte',
    'stesen',
    'car',
    'carpark',
    'parking',
    'garage',
    'parkhaus',
    'parkplatz',
    'tiefgarage',
    'aparcamiento',
    'estacionamiento',
    'parcheggio',
    'estacionamento',
    'parkeergarage',
  ],
  street: [
    'road',
    'street',
    'avenue',
    'lane',
    'drive',
    'boulevard',
    'highway',
    'rue',
    'strasse',
    'calle',
    'rua',
    'straat',
    'jalan',
    'lorong',
    // Structures of a road: named after the place they pass ("Newton Flyover").
    'flyover',
    'overpass',
    'underpass',
    'viaduct',
    'expressway',
    'freeway',
    'motorway',
    'tunnel',
  ],
  institution: ['base', 'camp', 'office', 'bank', 'police', 'embassy', 'museum', 'hall', 'club', 'institute', 'academy'],
  spa: ['spa'],
  // A wing or an annex of a building. Not tower, block or building: hotels and estates are named so.
  part: ['annex', 'annexe', 'wing', 'anexo', 'dependance', 'nebengebaude', 'lobby', 'clubhouse', 'pavilion'],
};

const KIND_WORDS = new Map<string, string>(Object.entries(KINDS).flatMap(([kind, words]) => words.map((word) => [word, kind] as const)));

// Compounding languages write the street into one word: Hauptstraße, Kerkstraat, Marktplatz.
const STREET_SUFFIXES = ['strasse', 'gasse', 'allee', 'platz', 'straat', 'plein', 'laan'];

function isStreetCompound(word: string): boolean {
  if (word.length < 7) return false;
  for (const suffix of STREET_SUFFIXES) if (word.length >= suffix.length + 3 && word.endsWith(suffix)) return true;
  return false;
}

const KIND_OF = {
  get(word: string): string | undefined {
    return KIND_WORDS.get(word) ?? (isStreetCompound(word) ? 'street' : undefined);
  },
  has(word: string): boolean {
    return this.get(word) !== undefined;
  },
};

/**
 * Kinds that are a part of a place (its gym, its pool, its car park) or a neighbour named after it
 * (its road, its station, its school, its clinic), whatever the other name is: added even to a
 * name that says no kind of its own, they make another place. Business kinds (a shop, a
 * restaurant, a temple) added to a bare name are what that business is ("Sheng Siong Supermarket").
 */
const PART_OR_NEIGHBOUR = new Set(['sport', 'play', 'transport', 'street', 'learning', 'spa', 'part', 'health']);

/**
 * Lodgings carry their street, their station and their spa in their names ("Ibis Gare du Nord",
 * "Grand Resort & Spa"): those added to a lodging's name are tails.
 */
const LODGING_TAILS = new Set(['street', 'transport', 'spa']);

/** Whether the words name a kind of place, and whether that kind is `kind`; a street says where, not what ("Empress Road Food Centre"). */
function ownKinds(words: readonly string[], kind: string): { any: boolean; same: boolean; lodging: boolean } {
  const found = { any: false, same: false, lodging: false };
  for (const word of words) {
    const own = KIND_OF.get(word);
    if (!own || own === 'street') continue;
    found.any = true;
    if (own === kind) found.same = true;
    if (own === 'lodging') found.lodging = true;
  }
  return found;
}

/** The last word of a name that names a kind: what the place is ("Varsity Park Condo Swimming Pool" is a pool). */
function head(words: readonly string[]): string | undefined {
  for (let i = words.length - 1; i >= 0; i--) if (KIND_OF.has(words[i]!)) return words[i];
  return undefined;
}

/**
 * A street with a name of its own after the other name ("7-Eleven Maple Drive", "Paul Rue
 * Gambetta", "Tchibo Bahnhofallee") says where the place is; a street word straight after the
 * other name and nothing else ("Nathan Road" beside "Nathan") is a street named after it, a
 * different place.
 */
function namesItsOwnStreet(words: readonly string[], extra: readonly string[], street: string): boolean {
  if (isStreetCompound(street)) return true;
  const at = words.lastIndexOf(street);
  const ownName = (word: string | undefined) => word !== undefined && extra.includes(word) && !KIND_OF.has(word);
  return ownName(words[at - 1]) || ownName(words[at + 1]);
}

/** Words that, with a number or a letter after them, name one part of a place: "Block 3", "(Area 9)", "Tower B". */
const PART_DESIGNATORS = new Set([
  'block',
  'area',
  'phase',
  'tower',
  'wing',
  'zone',
  'sector',
  'unit',
  'level',
  'floor',
  'torre',
  'turm',
  'toren',
  'bloque',
  'bloco',
  'blocco',
  'blok',
]);

/** The designator when the only words a name adds are a numbered part at its end ("Mardan Lintam Court Block 3"). */
function numberedPart(words: readonly string[], extra: readonly string[]): string | undefined {
  if (extra.length !== 2 || words.length < 3) return undefined;
  const [designator, label] = [words.at(-2)!, words.at(-1)!];
  if (!PART_DESIGNATORS.has(designator) || extra[0] !== designator || extra[1] !== label) return undefined;
  return /^(\d+[a-z]?|[a-z])$/.test(label) ? designator : undefined;
}

/**
 * The word that makes one name a different kind of place than the other; undefined when none.
 * `wordsA`, `wordsB`: each name's words in order; `extraA`, `extraB`: those the other name lacks.
 */
export function differentKindWord(
  wordsA: readonly string[],
  extraA: readonly string[],
  wordsB: readonly string[],
  extraB: readonly string[],
): string | undefined {
  if (extraA.length > 0 && extraB.length > 0) {
    // Both add a word: different places when each adds what it is and the kinds differ ("Nathan Residences" / "Nathan Road").
    const [headA, headB] = [head(wordsA), head(wordsB)];
    if (!headA || !headB || !extraA.includes(headA) || !extraB.includes(headB)) return undefined;
    const [kindA, kindB] = [KIND_OF.get(headA)!, KIND_OF.get(headB)!];
    if (kindA === kindB) return undefined;
    return kindA === 'street' ? headB : headA;
  }
  const [words, extra, other] = extraA.length > 0 ? [wordsA, extraA, wordsB] : [wordsB, extraB, wordsA];
  const part = numberedPart(words, extra);
  if (part) return part;
  const added = head(words);
  // Only what the longer name *is* counts: a kind word before its head is where it is.
  if (!added || !extra.includes(added)) return undefined;
  const kind = KIND_OF.get(added)!;
  if (kind === 'street' && namesItsOwnStreet(words, extra, added)) return undefined;
  const own = ownKinds(other, kind);
  // A name that says no kind of its own takes a business kind as a tail ("Sheng Siong Supermarket"),
  // not a part or a neighbour ("Mejornor Spa", "Mejornor Road", "Churchill Peka Clinic").
  if (!own.any) return PART_OR_NEIGHBOUR.has(kind) ? added : undefined;
  if (own.same || (own.lodging && LODGING_TAILS.has(kind))) return undefined;
  return added;
}

/**
 * Whether a word for another kind of place in the name of an outlet of the chain a row names says
 * where the outlet is ("Costa Coffee Central Station", "Campanile Stadium"): yes, unless the row
 * names a home ("Dairy Farm Estate"), whose pool and gym are its parts. A street word does when a
 * name of its own comes before it, whatever that name means ("Tim Hortons Church Avenue", "Subway
 * Station Lane": streets everywhere are named after churches, stations and markets), not when it
 * follows the chain's name ("Bugis Street" beside "Bugis").
 */
export function locatesAnOutlet(kindWord: string, rowWords: readonly string[], outletWords: readonly string[]): boolean {
  if (KIND_OF.get(kindWord) === 'street') {
    const before = outletWords[outletWords.lastIndexOf(kindWord) - 1];
    return before !== undefined && !rowWords.includes(before);
  }
  return !rowWords.some((word) => KIND_OF.get(word) === 'homes');
}

/** Kinds of business a brand trades as, which feeds write after its name or leave out. */
const TRADES = new Set(['lodging', 'food', 'shop']);

/**
 * Whether words a name adds to another only say what the brand trades as ("Coffee" after
 * "Starbucks", "Pharmacy" after "Guardian", "Hotel" after "Fragrance"): the same name, as feeds
 * write it with or without. Not a part, a neighbour, a street or an office ("Gym", "Road", "Office").
 */
export function isCategoryTail(words: readonly string[]): boolean {
  return words.length > 0 && words.every((word) => TRADES.has(KIND_OF.get(word) ?? ''));
}

/** A word for a part of a place or a neighbour named after it (a gym, a road, a numbered block). */
export function namesAPartOrNeighbour(word: string): boolean {
  return PART_DESIGNATORS.has(word) || PART_OR_NEIGHBOUR.has(KIND_OF.get(word) ?? '');
}

/** A word for a kind of place ("playground", "hotel", "station"): never a brand on its own. */
export function isKindWord(word: string): boolean {
  return KIND_OF.has(word);
}
