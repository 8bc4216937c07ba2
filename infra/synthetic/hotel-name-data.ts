/**
 * Word tables for synthetic hotel names, street addresses and supplier codes. Only data: the
 * generator combines them.
 */
import type { AddressStyle, NamingLanguage } from './world-data';

export interface Brand {
  name: string;
  /** Relative share of branded hotels. */
  weight: number;
  /** Typical star range of the brand. */
  minStars: number;
  maxStars: number;
}

// brand|weight|min stars|max stars
const BRAND_TABLE = `
Hilton|6|4|5
Hilton Garden Inn|6|3|4
Hampton by Hilton|6|3|3
DoubleTree by Hilton|5|4|4
Conrad|1|5|5
Waldorf Astoria|1|5|5
Marriott|6|4|5
Courtyard by Marriott|7|3|4
Residence Inn by Marriott|4|3|3
Fairfield Inn & Suites|4|2|3
Sheraton|5|4|5
Westin|3|4|5
Le Méridien|2|4|5
Renaissance|2|4|4
Four Points by Sheraton|3|3|4
Ritz-Carlton|1|5|5
JW Marriott|1|5|5
Holiday Inn|7|3|4
Holiday Inn Express|8|2|3
Crowne Plaza|4|4|4
InterContinental|2|5|5
Hotel Indigo|2|4|4
Kimpton|1|4|5
Ibis|9|2|3
Ibis Styles|6|2|3
Ibis Budget|6|1|2
Novotel|6|3|4
Mercure|7|3|4
Pullman|2|4|5
Sofitel|2|5|5
Swissôtel|1|4|5
Fairmont|1|5|5
Radisson Blu|4|4|5
Radisson|3|3|4
Park Inn by Radisson|3|3|3
Hyatt Regency|3|4|5
Park Hyatt|1|5|5
Grand Hyatt|1|5|5
Hyatt Place|3|3|3
Best Western|7|2|3
Best Western Plus|5|3|4
Mövenpick|2|4|5
NH Hotel|3|3|4
NH Collection|2|4|4
Meliá|3|4|5
Sol by Meliá|2|3|4
Barceló|3|4|5
Riu|3|4|5
Iberostar|3|4|5
Premier Inn|5|3|3
Travelodge|4|2|2
Motel One|3|2|3
B&B Hotel|4|2|2
Scandic|3|3|4
Comfort Inn|4|2|3
Quality Inn|3|2|3
Days Inn|4|1|2
Super 8|4|1|2
La Quinta Inn & Suites|3|2|3
Shangri-La|1|5|5
Mandarin Oriental|1|5|5
Four Seasons|1|5|5
Kempinski|1|5|5
Jumeirah|1|5|5
Novotel Suites|1|3|4
Citadines|2|3|3
Adina Apartment Hotel|1|4|4
Ramada|4|3|3
Wyndham|3|3|4
Wyndham Garden|2|3|3
Tryp by Wyndham|2|3|4
Leonardo Hotel|2|3|4
Steigenberger|1|4|5
Toyoko Inn|3|2|2
APA Hotel|3|2|3
Dorint|1|4|4
`;

export const BRANDS: readonly Brand[] = BRAND_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [name, weight, minStars, maxStars] = line.split('|');
    return { name: name as string, weight: Number(weight), minStars: Number(minStars), maxStars: Number(maxStars) };
  });

/** Areas a branded hotel names itself after, besides streets and the bare city. */
export const AREA_WORDS: readonly string[] = [
  'Airport',
  'City Centre',
  'Downtown',
  'Old Town',
  'Central Station',
  'Convention Center',
  'Riverside',
  'Harbour',
  'Waterfront',
  'Beach',
  'North',
  'South',
  'East',
  'West',
  'Park',
  'Cathedral',
  'Marina',
  'University',
  'Expo',
  'Arena',
  'Business District',
  'Financial District',
  'Stadium',
  'Old Port',
  'Central',
  'Midtown',
  'Uptown',
  'Seafront',
  'Lakeside',
  'Gardens',
  'Castle',
  'Market Square',
  'Opera',
  'Museum Quarter',
  'Trade Fair',
  'Old City',
  'Cruise Port',
  'Hills',
  'Bay',
  'Bridge',
  'Station',
  'Plaza',
  'Boulevard',
  'Promenade',
  'Tower',
  'Gate',
  'Exhibition Centre',
  'Chinatown',
  'Golf Resort',
  'Spa',
];

/** Words for independent hotel names per language. */
export interface IndependentNameWords {
  /** Patterns with {adj}, {noun}, {city}, {person} placeholders. */
  patterns: readonly string[];
  adjectives: readonly string[];
  nouns: readonly string[];
  persons: readonly string[];
}

const ENGLISH_NAME_WORDS: IndependentNameWords = {
  patterns: [
    '{adj} {noun} Hotel',
    'The {adj} {noun}',
    '{noun} House Hotel',
    '{adj} {noun} Resort',
    '{city} {noun} Inn',
    '{noun} Suites {city}',
    'The {noun} Boutique Hotel',
    '{adj} {noun} Lodge',
    '{noun} Hostel',
    'Hotel {noun}',
    '{person} House',
    'The {person} Hotel',
    '{adj} {noun} Resort & Spa',
    '{noun} Bay Resort',
    '{adj} {noun} Guesthouse',
  ],
  adjectives: [
    'Grand',
    'Royal',
    'Golden',
    'Silver',
    'Blue',
    'Green',
    'Old',
    'New',
    'Little',
    'Sunrise',
    'Sunset',
    'Ocean',
    'Palm',
    'Imperial',
    'Majestic',
    'Continental',
    'Crystal',
    'Coral',
    'White',
    'Red',
    'Hidden',
    'Quiet',
    'Urban',
    'Secret',
    'Lucky',
    'Emerald',
    'Sapphire',
    'Amber',
    'Ivory',
    'Velvet',
    'Wild',
    'Windsor',
    'Northern',
    'Southern',
    'Grand Central',
  ],
  nouns: [
    'Palace',
    'Plaza',
    'Tower',
    'Gate',
    'Harbour',
    'Bay',
    'River',
    'Garden',
    'Lotus',
    'Orchid',
    'Pearl',
    'Star',
    'Crown',
    'Lighthouse',
    'Castle',
    'Bridge',
    'Square',
    'Mill',
    'Oak',
    'Pine',
    'Cedar',
    'Maple',
    'Lagoon',
    'Horizon',
    'Anchor',
    'Meadow',
    'Willow',
    'Falcon',
    'Heron',
    'Lantern',
    'Compass',
    'Orchard',
    'Cliff',
    'Dune',
    'Reef',
    'Summit',
    'Beacon',
    'Terrace',
    'Courtyard',
    'Quay',
    'Abbey',
    'Manor',
    'Sands',
    'Tides',
    'Waves',
    'Palms',
    'Vista',
    'Haven',
  ],
  persons: ['Wellington', 'Victoria', 'Albert', 'Churchill', 'Darwin', 'Byron', 'Kensington', 'Ashford', 'Hamilton', 'Stanley'],
};

const NAME_WORDS_BY_LANGUAGE: Record<NamingLanguage, IndependentNameWords> = {
  en: ENGLISH_NAME_WORDS,
  fr: {
    patterns: [
      'Hôtel Le {adj} {noun}',
      'Hôtel de la {noun}',
      'Hôtel des {noun}s',
      'Le {noun} Hôtel',
      'Auberge du {noun}',
      'Hôtel {person}',
      'Château {person}',
      'Hôtel Le Petit {city}',
      'Hôtel du {noun} {adj}',
      'La Maison {person}',
      'Hôtel {adj} {city}',
      'Villa {person}',
    ],
    adjectives: ['Petit', 'Grand', 'Beau', 'Vieux', 'Doré', 'Royal', 'Bleu', 'Nouvel', 'Élégant', 'Charmant', 'Parisien', 'Provençal'],
    nouns: [
      'Jardin',
      'Palais',
      'Lys',
      'Moulin',
      'Parc',
      'Pont',
      'Louvre',
      'Cygne',
      'Chêne',
      'Tilleul',
      'Soleil',
      'Marché',
      'Quai',
      'Cloître',
      'Rivage',
    ],
    persons: ['Montaigne', 'Molière', 'Voltaire', 'Lafayette', 'Saint-Louis', 'Richelieu', 'Baudelaire', 'Rivoli', 'Beauséjour', 'Vendôme'],
  },
  de: {
    patterns: [
      'Hotel Zum {noun}',
      'Gasthof {person}',
      'Hotel {person}hof',
      'Pension {person}',
      'Hotel {adj} {noun}',
      'Landhaus {person}',
      'Hotel Am {noun}',
      'Hotel {city}er Hof',
      'Hotel Haus {person}',
      'Alpenhotel {person}',
    ],
    adjectives: ['Alter', 'Goldener', 'Grüner', 'Schwarzer', 'Weißer', 'Roter', 'Blauer', 'Neuer', 'Stiller'],
    nouns: ['Hirsch', 'Löwen', 'Adler', 'Bären', 'Schwan', 'Stern', 'Rathaus', 'Markt', 'Dom', 'Park', 'See', 'Berg', 'Brunnen', 'Schloss'],
    persons: ['Kaiser', 'König', 'Linden', 'Rosen', 'Sonnen', 'Berg', 'Wald', 'Eichen', 'Tannen', 'Mozart', 'Schiller', 'Goethe'],
  },
  es: {
    patterns: [
      'Hotel Casa {person}',
      'Hostal {person}',
      'Hotel {noun} Plaza',
      'Posada del {noun}',
      'Hotel {adj} {noun}',
      'Hotel Boutique {person}',
      'Parador de {city}',
      'Hotel Villa {person}',
      'Hacienda {person}',
      'Hotel Playa {noun}',
    ],
    adjectives: ['Real', 'Dorado', 'Gran', 'Nuevo', 'Viejo', 'Bello', 'Blanco', 'Azul', 'Alegre'],
    nouns: ['Sol', 'Mar', 'Puerto', 'Jardín', 'Palacio', 'Parque', 'Río', 'Olivo', 'Faro', 'Mirador', 'Patio', 'Convento'],
    persons: ['Cervantes', 'Goya', 'Carmen', 'Isabel', 'Alhambra', 'Santa Cruz', 'San Marcos', 'Las Flores', 'Don Quijote', 'Gaudí'],
  },
  it: {
    patterns: [
      'Albergo {person}',
      'Hotel Villa {person}',
      'Palazzo {person}',
      'Locanda del {noun}',
      'Hotel {adj} {noun}',
      'Hotel {noun} {city}',
      'Residenza {person}',
      'Grand Hotel {person}',
      'Pensione {person}',
      'Hotel Bellavista {city}',
    ],
    adjectives: ['Bel', 'Gran', 'Vecchio', 'Nuovo', 'Piccolo', 'Reale', 'Dolce', 'Antico'],
    nouns: ['Sole', 'Mare', 'Ponte', 'Giardino', 'Duomo', 'Porto', 'Castello', 'Borgo', 'Lago', 'Colle', 'Teatro', 'Chiostro'],
    persons: ['Medici', 'Dante', 'Garibaldi', 'Vittoria', 'San Marco', 'Santa Chiara', 'Raffaello', 'Leonardo', 'Verdi', 'Bernini'],
  },
  pt: {
    patterns: [
      'Hotel {person}',
      'Pousada {person}',
      'Casa {person}',
      'Hotel {adj} {noun}',
      'Hotel Praia {noun}',
      'Solar {person}',
      'Hotel {noun} {city}',
      'Quinta {person}',
      'Pestana {person}',
      'Hotel Vila {person}',
    ],
    adjectives: ['Grande', 'Real', 'Novo', 'Velho', 'Dourado', 'Azul', 'Belo'],
    nouns: ['Mar', 'Sol', 'Porto', 'Jardim', 'Palácio', 'Farol', 'Rio', 'Praça', 'Convento', 'Miradouro'],
    persons: ['Camões', 'Santa Luzia', 'São Bento', 'Dom Pedro', 'Alfama', 'Ipanema', 'Copacabana', 'Pessoa', 'Estoril', 'Boavista'],
  },
  nl: {
    patterns: ['Hotel {person}', 'Hotel De {noun}', 'Hotel {adj} {noun}', 'Grachtenhotel {person}', 'Hotel {city} {noun}'],
    adjectives: ['Oude', 'Nieuwe', 'Gouden', 'Kleine', 'Grote'],
    nouns: ['Molen', 'Gracht', 'Tulp', 'Brug', 'Haven', 'Poort', 'Wildeman', 'Leeuw', 'Zwaan'],
    persons: ['Rembrandt', 'Vondel', 'Keizersgracht', 'Prinsengracht', 'Oranje', 'Van Gogh', 'Jordaan', 'Amstel'],
  },
};

export function independentNameWords(language: NamingLanguage): IndependentNameWords {
  return NAME_WORDS_BY_LANGUAGE[language];
}

/** How a street address is composed: {n} house number, {s} street name, {t} street type. */
export interface StreetStyle {
  format: string;
  names: readonly string[];
  types: readonly string[];
}

const ENGLISH_STREET_NAMES = [
  'Main',
  'Oak',
  'Maple',
  'Park',
  'Washington',
  'Lake',
  'Hill',
  'Pine',
  'Elm',
  'Cedar',
  'Ocean',
  'Market',
  'Church',
  'King',
  'Queen',
  'Victoria',
  'Harbour',
  'Station',
  'River',
  'Bridge',
  'Mill',
  'Beach',
  'Sunset',
  'Broad',
  'High',
];

export const STREET_STYLES: Record<AddressStyle, StreetStyle> = {
  us: {
    format: '{n} {s} {t}',
    names: ENGLISH_STREET_NAMES,
    types: ['Street', 'Avenue', 'Boulevard', 'Drive', 'Road', 'Way', 'Place', 'Lane'],
  },
  uk: {
    format: '{n} {s} {t}',
    names: ENGLISH_STREET_NAMES,
    types: ['Street', 'Road', 'Lane', 'Square', 'Place', 'Gardens', 'Terrace', 'Crescent'],
  },
  intl: { format: '{n} {s} {t}', names: ENGLISH_STREET_NAMES, types: ['Road', 'Street', 'Avenue', 'Boulevard'] },
  fr: {
    format: '{n} {t} {s}',
    names: [
      'de la Paix',
      'Victor Hugo',
      'du Général de Gaulle',
      'Saint-Honoré',
      'des Lilas',
      'de la République',
      'Jean Jaurès',
      'du Port',
      'de la Gare',
      'Pasteur',
      'des Écoles',
      'Gambetta',
      'Foch',
      'de Verdun',
      'des Fleurs',
    ],
    types: ['Rue', 'Rue', 'Avenue', 'Boulevard', 'Place', 'Quai', 'Allée'],
  },
  de: {
    format: '{s}{t} {n}',
    names: [
      'Haupt',
      'Bahnhof',
      'Schiller',
      'Goethe',
      'Kirch',
      'Berg',
      'Garten',
      'Linden',
      'Mozart',
      'Park',
      'Markt',
      'Schloss',
      'See',
      'Wald',
      'Rosen',
    ],
    types: ['straße', 'straße', 'weg', 'platz', 'allee', 'gasse', 'ring'],
  },
  nl: {
    format: '{s}{t} {n}',
    names: ['Keizers', 'Heren', 'Prinsen', 'Kerk', 'Molen', 'Dam', 'Rozen', 'Linden', 'Haven', 'Stations', 'Markt'],
    types: ['straat', 'straat', 'weg', 'gracht', 'laan', 'plein', 'kade'],
  },
  es: {
    format: '{t} {s}, {n}',
    names: [
      'Mayor',
      'de Alcalá',
      'del Mar',
      'de la Constitución',
      'Real',
      'San Vicente',
      'de Colón',
      'Gran Vía',
      'del Sol',
      'de Goya',
      'de la Paz',
      'de las Flores',
    ],
    types: ['Calle', 'Calle', 'Avenida', 'Paseo', 'Plaza', 'Camino'],
  },
  it: {
    format: '{t} {s}, {n}',
    names: [
      'Roma',
      'Garibaldi',
      'Giuseppe Verdi',
      'Dante',
      'Cavour',
      'Vittorio Emanuele II',
      'Mazzini',
      'dei Mille',
      'San Marco',
      'del Corso',
      'Nazionale',
    ],
    types: ['Via', 'Via', 'Viale', 'Piazza', 'Corso', 'Vicolo', 'Lungomare'],
  },
  pt: {
    format: '{t} {s}, {n}',
    names: [
      'Augusta',
      'da Liberdade',
      'das Flores',
      'do Comércio',
      'Dom Pedro II',
      'Sete de Setembro',
      'XV de Novembro',
      'da Praia',
      'do Carmo',
      'Atlântica',
    ],
    types: ['Rua', 'Rua', 'Avenida', 'Praça', 'Travessa', 'Largo'],
  },
  nordic: {
    format: '{s}{t} {n}',
    names: ['Kungs', 'Drottning', 'Strand', 'Havne', 'Kirke', 'Torv', 'Nørre', 'Vester', 'Øster', 'Sjö', 'Skole'],
    types: ['gatan', 'vägen', 'gade', 'gata', 'vej'],
  },
  eu: {
    format: '{s} {n}',
    // Fallback only: `streetNamesFor` uses the country's own list below.
    names: ['Central Avenue', 'Market Street'],
    types: [''],
  },
  jp: {
    format: '{n} {s}',
    names: ['Chūō', 'Minato', 'Naka', 'Kita', 'Higashi', 'Nishi', 'Minami', 'Sakae', 'Honchō', 'Ekimae', 'Shinjuku', 'Umeda'],
    types: [''],
  },
};

/** Local street names for the countries written in the 'eu' style ("{street} {number}"). */
const EU_STREET_NAMES: Record<string, readonly string[]> = {
  GR: ['Ermou', 'Athinas', 'Akadimias', 'Stadiou', 'Patission'],
  CZ: ['Národní', 'Vodičkova', 'Karlova', 'Celetná', 'Václavské náměstí'],
  HU: ['Andrássy út', 'Váci utca', 'Király utca', 'Rákóczi út'],
  PL: ['ul. Floriańska', 'ul. Długa', 'ul. Nowy Świat', 'ul. Marszałkowska'],
  RO: ['Strada Lipscani', 'Calea Victoriei', 'Bulevardul Unirii'],
  BG: ['bul. Vitosha', 'ul. Graf Ignatiev', 'ul. Rakovski'],
  HR: ['Ilica', 'Stradun', 'Ulica kralja Tomislava', 'Ulica Marmontova'],
  SI: ['Slovenska cesta', 'Prešernov trg', 'Trubarjeva cesta'],
  RS: ['Knez Mihailova', 'Bulevar kralja Aleksandra', 'Skadarska'],
  SK: ['Obchodná', 'Michalská', 'Panská'],
  EE: ['Viru', 'Pikk', 'Narva mnt'],
  LV: ['Brīvības iela', 'Elizabetes iela', 'Kaļķu iela'],
  LT: ['Gedimino prospektas', 'Pilies gatvė', 'Vokiečių gatvė'],
  TR: ['İstiklal Caddesi', 'Atatürk Bulvarı', 'Cumhuriyet Caddesi', 'Kıbrıs Şehitleri Caddesi'],
  CY: ['Makarios Avenue', 'Ledras Street', 'Poseidonos Avenue'],
  RU: ['Nevsky Prospekt', 'Tverskaya ulitsa', 'ulitsa Arbat', 'Liteyny Prospekt'],
};

export function streetNamesFor(countryCode: string, style: StreetStyle): readonly string[] {
  return EU_STREET_NAMES[countryCode] ?? style.names;
}

export interface SupplierFormat {
  code: string;
  /** Relative share of hotels listed at this supplier. */
  weight: number;
  prefix: string;
  /** Number of id digits; ids stay unique for up to 10^digits hotels. */
  digits: number;
}

export const SUPPLIERS: readonly SupplierFormat[] = [
  { code: 'HOTELBEDS', weight: 10, prefix: '', digits: 7 },
  { code: 'EXPEDIA', weight: 10, prefix: '', digits: 8 },
  { code: 'BOOKING', weight: 9, prefix: '', digits: 8 },
  { code: 'AGODA', weight: 6, prefix: '', digits: 8 },
  { code: 'TRAVELGATE', weight: 4, prefix: 'TG', digits: 7 },
  { code: 'WEBBEDS', weight: 5, prefix: '', digits: 7 },
  { code: 'DERBYSOFT', weight: 3, prefix: 'DS', digits: 7 },
  { code: 'GTA', weight: 3, prefix: 'GTA', digits: 7 },
  { code: 'TBO', weight: 3, prefix: '', digits: 7 },
  { code: 'HOTELSPRO', weight: 2, prefix: 'HP', digits: 7 },
  { code: 'RESTEL', weight: 2, prefix: '', digits: 7 },
  { code: 'JUNIPER', weight: 2, prefix: 'JP', digits: 7 },
];
