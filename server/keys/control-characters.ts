/**
 * Characters that act on a terminal instead of showing: C0 (newline, ESC…), DEL, C1 (CSI, OSC…) and the Unicode
 * bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder what follows them on screen
 * ("Trojan Source"). A key name holding one can forge a row of `docent keys list` or drive the operator's terminal.
 */
export function isControlCharacter(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)
}

/** `text` without control characters, but tab and line feed, which lay out a description. */
export function withoutControlCharacters(text: string): string {
  let out = ''
  for (const char of text) if (char === '\t' || char === '\n' || !isControlCharacter(char.charCodeAt(0))) out += char
  return out
}

/** `text` on one line, for a title or a name: control characters dropped, each run of whitespace one space, trimmed. */
export function oneLine(text: string | undefined): string {
  return withoutControlCharacters((text ?? '').replace(/\s+/g, ' '))
    .replace(/ {2,}/g, ' ')
    .trim()
}

const hex = (code: number, digits: number) => code.toString(16).toUpperCase().padStart(digits, '0')

/** Why `text` may not be shown as it is (`must not contain control characters (U+001B)`), or null. */
export function controlCharacterProblem(text: string): string | null {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (isControlCharacter(code)) return `must not contain control characters (U+${hex(code, 4)} at position ${index + 1})`
  }
  return null
}

const NAMED: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r' }

/**
 * `text` safe to print: each control character written out as an escape (`\n`, `\x1b`, `\u202e`), so nothing printed
 * moves the cursor, colours the terminal or starts a new line. `keep` lists characters to leave as they are (`\n` in
 * a message the CLI composed itself).
 */
export function escapeControlCharacters(text: string, keep = ''): string {
  let out = ''
  for (const char of text) {
    const code = char.charCodeAt(0)
    if (!isControlCharacter(code) || keep.includes(char)) out += char
    else out += NAMED[code] ?? (code <= 0xff ? `\\x${hex(code, 2).toLowerCase()}` : `\\u${hex(code, 4).toLowerCase()}`)
  }
  return out
}
