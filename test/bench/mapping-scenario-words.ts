/**
 * Word lists of the `bench:mapping` scenarios (mapping-scenarios.ts), per naming language of the
 * synthetic world. Only data. Templates put the name where `{}` stands: French, Spanish, Italian,
 * Portuguese and Dutch put a kind-of-place word in front ("Piscine {}"), English and German mostly
 * behind ("{} Gym"), so a sub-place is not always "the parent's name plus a word at the end".
 */
import type { NamingLanguage } from '../../infra/synthetic/world-data';

/**
 * Chains with many outlets in one downtown, none of them a brand of the synthetic reference
 * generator (so no base row of the benchmark gains a namesake): coffee and food chains, which
 * partners list with the chain name only, and budget hotel chains.
 */
export const CHAINS: Record<NamingLanguage, readonly string[]> = {
  en: [
    'Starbucks Coffee',
    'Tim Hortons',
    'Costa Coffee',
    'Pret A Manger',
    "Dunkin'",
    'Caffè Nero',
    'The Coffee Bean & Tea Leaf',
    'Toast Box',
    'Ya Kun Kaya Toast',
    'Subway',
    "McDonald's",
    '7-Eleven',
    'Guardian Pharmacy',
    'Hotel 81',
    'Fragrance Hotel',
    'Motel 6',
    'Red Roof Inn',
  ],
  fr: ['Paul', 'Brioche Dorée', 'Columbus Café', 'Café Richard', 'Première Classe', 'Campanile', 'Kyriad', 'Monoprix', 'Pomme de Pain'],
  de: ['Tchibo', 'Nordsee', 'Backwerk', 'Balzac Coffee', 'Einstein Kaffee', 'Rossmann', 'a&o Hostel', 'Bäckerei Kamps', 'Coffee Fellows'],
  es: ['Telepizza', '100 Montaditos', 'Rodilla', 'Café & Té', 'Granier', 'Petit Palace', 'Lizarran', 'Panaria'],
  it: ['Autogrill', 'Segafredo Zanetti Espresso', 'Caffè Vergnano 1882', 'Spizzico', 'Old Wild West', 'Rossopomodoro', 'Arcaplanet'],
  pt: ['Padaria Portuguesa', 'Delta Cafés', 'Casa Bauducco', 'Vila Galé', 'Brasileira Café', 'Pão de Açúcar', 'Fábrica Coffee Roasters'],
  nl: ['Bagels & Beans', 'Coffee Company', 'Albert Heijn to go', 'HEMA', 'Stayokay', 'Bakkerij Bart', 'Anne & Max', 'Kiosk'],
};

/** Word lists of the sub-place scenario, all templates around `{}`. */
export interface PlaceWords {
  /** How a parent place is named after its base name ("{} Heights", "Parc {}"; "{}" alone: "Komala Vilas"). */
  parentKinds: readonly string[];
  /**
   * A different kind of place that is part of the parent (or on its grounds), applied to the
   * parent's whole name: "Cashew Heights" -> "Cashew Heights Gym". `#` is a number, `$` a letter.
   */
  parts: readonly string[];
  /** A different kind of place beside it, named after the same base: "Nathan Residences" / "Nathan Road". */
  neighbours: readonly string[];
  /** Same kind of place: a category tail the same business is also listed with ("Komala Vilas Restaurant"). */
  categoryTails: readonly string[];
}

export const PLACE_WORDS: Record<NamingLanguage, PlaceWords> = {
  en: {
    parentKinds: [
      '{} Park',
      '{} Heights',
      '{} Residences',
      '{} Gardens',
      '{} Court',
      '{} Towers',
      '{} Village',
      '{} Naval Base',
      '{} Camp',
      '{} Plaza',
      '{} Estate',
      '{} Country Club',
      '{} Mall',
      '{}',
      '{}',
    ],
    parts: [
      '{} Gym',
      '{} Swimming Pool',
      '{} Pool',
      '{} Medical Centre',
      '{} Clinic',
      '{} Car Park',
      '{} Playground',
      '{} Spa',
      '{} Block #',
      '{} Wing $',
      '{} Tower #',
      '{} Annex',
      '{} (Area #)',
      '{} Tennis Court',
      '{} School',
      '{} Fitness Corner',
    ],
    neighbours: [
      '{} Road',
      '{} Station',
      '{} MRT Station',
      '{} Bus Interchange',
      '{} Primary School',
      '{} Community Club',
      '{} Street',
      '{} Car Park',
    ],
    categoryTails: ['{} Restaurant', '{} Café', '{} Coffee', '{} Bar', '{} Hotel', '{} Inn', '{} Resort', '{} Suites'],
  },
  fr: {
    parentKinds: ['Parc {}', 'Résidence {}', 'Domaine {}', 'Jardins {}', 'Centre {}', 'Camping {}', 'Club {}', '{}', '{}'],
    parts: [
      'Piscine {}',
      'Parking {}',
      'Gymnase {}',
      'Clinique {}',
      'École {}',
      'Aire de jeux {}',
      '{} Spa',
      '{} Annexe',
      '{} Bâtiment $',
      '{} Tour #',
      '{} (Zone #)',
    ],
    neighbours: ['Rue {}', 'Gare {}', 'Station {}', 'Parking {}', 'École {}', 'Avenue {}'],
    categoryTails: ['Restaurant {}', 'Café {}', 'Bar {}', 'Hôtel {}', 'Brasserie {}', 'Auberge {}'],
  },
  de: {
    parentKinds: ['{} Park', '{} Residenz', '{} Gärten', '{} Zentrum', '{} Kaserne', '{} Campingplatz', '{} Hof', '{}', '{}'],
    parts: [
      '{} Schwimmbad',
      '{} Parkhaus',
      '{} Tiefgarage',
      '{} Fitnessstudio',
      '{} Klinik',
      '{} Spielplatz',
      '{} Spa',
      '{} Haus $',
      '{} Turm #',
      '{} Nebengebäude',
      '{} Schule',
    ],
    neighbours: ['{}straße', '{} Straße', '{} Bahnhof', '{} Haltestelle', '{} Grundschule', '{} Parkplatz'],
    categoryTails: ['{} Restaurant', '{} Café', '{} Bar', '{} Hotel', '{} Gasthof', '{} Stube'],
  },
  es: {
    parentKinds: ['Parque {}', 'Residencial {}', 'Jardines {}', 'Centro {}', 'Urbanización {}', 'Club {}', '{}', '{}'],
    parts: [
      'Piscina {}',
      'Parking {}',
      'Gimnasio {}',
      'Clínica {}',
      'Colegio {}',
      'Parque Infantil {}',
      '{} Spa',
      '{} Anexo',
      '{} Bloque $',
      '{} Torre #',
      '{} (Zona #)',
    ],
    neighbours: ['Calle {}', 'Estación {}', 'Avenida {}', 'Parada {}', 'Colegio {}', 'Aparcamiento {}'],
    categoryTails: ['Restaurante {}', 'Cafetería {}', 'Bar {}', 'Hotel {}', 'Hostal {}', 'Taberna {}'],
  },
  it: {
    parentKinds: ['Parco {}', 'Residenza {}', 'Giardini {}', 'Centro {}', 'Villaggio {}', 'Circolo {}', '{}', '{}'],
    parts: [
      'Piscina {}',
      'Parcheggio {}',
      'Palestra {}',
      'Clinica {}',
      'Scuola {}',
      'Parco Giochi {}',
      '{} Spa',
      '{} Dependance',
      '{} Blocco $',
      '{} Torre #',
      '{} (Area #)',
    ],
    neighbours: ['Via {}', 'Stazione {}', 'Piazza {}', 'Fermata {}', 'Scuola {}', 'Parcheggio {}'],
    categoryTails: ['Ristorante {}', 'Caffè {}', 'Bar {}', 'Hotel {}', 'Trattoria {}', 'Locanda {}'],
  },
  pt: {
    parentKinds: ['Parque {}', 'Residencial {}', 'Jardins {}', 'Centro {}', 'Condomínio {}', 'Clube {}', '{}', '{}'],
    parts: [
      'Piscina {}',
      'Estacionamento {}',
      'Ginásio {}',
      'Clínica {}',
      'Escola {}',
      'Parque Infantil {}',
      '{} Spa',
      '{} Anexo',
      '{} Bloco $',
      '{} Torre #',
      '{} (Área #)',
    ],
    neighbours: ['Rua {}', 'Estação {}', 'Avenida {}', 'Paragem {}', 'Escola {}', 'Largo {}'],
    categoryTails: ['Restaurante {}', 'Café {}', 'Bar {}', 'Hotel {}', 'Pousada {}', 'Tasca {}'],
  },
  nl: {
    parentKinds: ['{} Park', '{} Residentie', '{} Tuinen', '{} Centrum', '{} Kazerne', 'Camping {}', '{} Hof', '{}', '{}'],
    parts: [
      'Zwembad {}',
      'Parkeergarage {}',
      'Sportschool {}',
      'Kliniek {}',
      'Speeltuin {}',
      'School {}',
      '{} Spa',
      '{} Dependance',
      '{} Blok $',
      '{} Toren #',
      '{} (Gebied #)',
    ],
    neighbours: ['{}straat', '{}weg', 'Station {}', 'Bushalte {}', 'Basisschool {}', '{}plein'],
    categoryTails: ['Restaurant {}', 'Café {}', 'Bar {}', 'Hotel {}', 'Herberg {}', 'Eetcafé {}'],
  },
};

/**
 * Syllables of made-up proper names ("Kelvara", "Tuas"): a base nobody else in the reference
 * carries, like most real places' names, so that only the kind-of-place words tell a parent from
 * its part.
 */
export const NAME_SYLLABLES: readonly string[] = [
  'ka',
  'ke',
  'ko',
  'ma',
  'me',
  'mo',
  'na',
  'ne',
  'ri',
  'ra',
  'lo',
  'la',
  'ta',
  'tu',
  'sa',
  'se',
  'vi',
  'va',
  'do',
  'da',
  'pa',
  'pe',
  'bel',
  'cor',
  'dan',
  'fel',
  'gar',
  'hal',
  'jor',
  'kel',
  'lin',
  'mar',
  'nor',
  'or',
  'pas',
  'ris',
  'sol',
  'tam',
  'ul',
  'ven',
  'wes',
  'yar',
  'zan',
  'as',
  'ash',
  'hew',
  'than',
  'bri',
  'cla',
  'dre',
  'fro',
  'gla',
  'tre',
];
