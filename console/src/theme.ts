export type ThemeChoice = 'system' | 'light' | 'dark'
const KEY = 'docent-console-theme'

export function storedTheme(): ThemeChoice {
  const value = localStorage.getItem(KEY)
  return value === 'light' || value === 'dark' ? value : 'system'
}

/** Applies the choice to <html data-theme> (the stylesheet's tokens follow it) and tells the charts to redraw. */
export function applyTheme(choice: ThemeChoice) {
  if (choice === 'system') {
    localStorage.removeItem(KEY)
    delete document.documentElement.dataset.theme
  } else {
    localStorage.setItem(KEY, choice)
    document.documentElement.dataset.theme = choice
  }
  window.dispatchEvent(new Event('docent-theme'))
}

export function isDark(): boolean {
  const forced = document.documentElement.dataset.theme
  return forced ? forced === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches
}
