import { en, type Labels } from './i18n/en.ts'
import { dictionaries, type Language } from './launcher-labels.ts'

export type { Labels } from './i18n/en.ts'
export const defaultLabels = en

/** The built-in texts of a language; English when its chunk cannot load (the panel still works). */
export async function loadLabels(language: Language): Promise<Labels> {
  if (language === 'en') return en
  try {
    return (await dictionaries[language]()) as Labels
  } catch {
    return en
  }
}

/** `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}
