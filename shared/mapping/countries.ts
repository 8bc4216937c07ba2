/**
 * Countries written as ISO 3166-1 alpha-2 or alpha-3 codes or as names (in the languages partners
 * commonly use) all resolve to one alpha-2 code, so "DE", "DEU", "Germany" and "Deutschland" compare equal.
 */
import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import fr from 'i18n-iso-countries/langs/fr.json' with { type: 'json' };
import it from 'i18n-iso-countries/langs/it.json' with { type: 'json' };
import nl from 'i18n-iso-countries/langs/nl.json' with { type: 'json' };
import pt from 'i18n-iso-countries/langs/pt.json' with { type: 'json' };

const LANGUAGES = [en, de, fr, es, it, pt, nl];
for (const language of LANGUAGES) countries.registerLocale(language);

// Inventories repeat the same few country spellings; resolving each once keeps parsing fast.
const resolved = new Map<string, string | undefined>();

/** ISO alpha-2 code (upper case) for a country code or name; undefined when not recognised. */
export function toCountryCode(raw: string | undefined): string | undefined {
  const text = raw?.trim() ?? '';
  if (text === '') return undefined;
  if (resolved.has(text)) return resolved.get(text);
  const code = resolveCountry(text);
  resolved.set(text, code);
  return code;
}

function resolveCountry(text: string): string | undefined {
  const upper = text.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && countries.isValid(upper)) return upper;
  if (/^[A-Z]{3}$/.test(upper)) {
    const fromAlpha3 = countries.alpha3ToAlpha2(upper);
    if (fromAlpha3) return fromAlpha3;
  }
  for (const language of LANGUAGES) {
    const code = countries.getAlpha2Code(text, language.locale) ?? countries.getSimpleAlpha2Code(text, language.locale);
    if (code) return code;
  }
  return undefined;
}
