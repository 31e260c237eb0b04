/** The languages the widget speaks; the page's `<html lang>` picks one unless the `lang` attribute says otherwise. */
export const LANGUAGES = ['en', 'fr', 'es', 'de', 'ja', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

/** The few texts shown before the panel's code loads. */
export interface LauncherLabels {
  launcher: string
  loading: string
  errorNetwork: string
  retry: string
  close: string
  askSelection: string
}

/** English; the other languages' texts (launcher and panel) are one small chunk each, loaded for a page in that language. */
export const enLauncher: LauncherLabels = {
  launcher: 'Ask AI',
  loading: 'Loading…',
  errorNetwork: 'Could not reach the assistant. Check your connection and retry.',
  retry: 'Retry',
  close: 'Close',
  askSelection: 'Ask about selection',
}

export const dictionaries: Record<Exclude<Language, 'en'>, () => Promise<LauncherLabels & Record<string, string>>> = {
  fr: () => import('./i18n/fr.ts').then((m) => m.fr),
  es: () => import('./i18n/es.ts').then((m) => m.es),
  de: () => import('./i18n/de.ts').then((m) => m.de),
  ja: () => import('./i18n/ja.ts').then((m) => m.ja),
  zh: () => import('./i18n/zh.ts').then((m) => m.zh),
}

/** `fr-CA` → `fr`, `zh-Hant-TW` → `zh`; a language the widget lacks → English. */
export function pickLanguage(...candidates: Array<string | null | undefined>): Language {
  for (const candidate of candidates) {
    const base = (candidate ?? '').trim().toLowerCase().split(/[-_]/)[0] as Language
    if ((LANGUAGES as readonly string[]).includes(base)) return base
  }
  return 'en'
}
