import { css } from 'lit'

/** The dark theme's tokens: for theme="dark", and for a reader whose system is dark unless theme="light". */
const darkTokens = css`
  --_accent: var(--docent-accent, #818cf8);
  --_accent-fg: var(--docent-accent-foreground, #0b1020);
  --_bg: var(--docent-background, #111827);
  --_fg: var(--docent-foreground, #f3f4f6);
  --_muted: var(--docent-muted, #9ca3af);
  --_surface: var(--docent-surface, #1f2937);
  --_border: var(--docent-border, #374151);
  --_danger: var(--docent-danger, #fca5a5);
  --_code-string: var(--docent-code-string, #86efac);
  --_code-number: var(--docent-code-number, #fcd34d);
  --_code-keyword: var(--docent-code-keyword, #c4b5fd);
  --_code-command: var(--docent-code-command, #93c5fd);
  color-scheme: dark;
`

/** Theme tokens and the launcher. Pages theme the widget with the `--docent-*` custom properties. */
export const launcherStyles = css`
  :host {
    --_accent: var(--docent-accent, #4f46e5);
    --_accent-fg: var(--docent-accent-foreground, #ffffff);
    --_bg: var(--docent-background, #ffffff);
    --_fg: var(--docent-foreground, #111827);
    --_muted: var(--docent-muted, #6b7280);
    --_surface: var(--docent-surface, #f4f5f7);
    --_border: var(--docent-border, #e5e7eb);
    --_radius: var(--docent-radius, 14px);
    --_font: var(--docent-font, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif);
    --_mono: var(--docent-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
    --_shadow: var(--docent-shadow, 0 12px 40px rgb(15 23 42 / 0.18), 0 2px 8px rgb(15 23 42 / 0.08));
    --_z: var(--docent-z-index, 2147483000);
    --_danger: var(--docent-danger, #b91c1c);
    --_code-string: var(--docent-code-string, #0f7b3f);
    --_code-number: var(--docent-code-number, #b45309);
    --_code-keyword: var(--docent-code-keyword, #7c3aed);
    --_code-command: var(--docent-code-command, #2563eb);
    font-family: var(--_font);
    color: var(--_fg);
    color-scheme: light;
  }
  :host([theme='dark']) {
    ${darkTokens}
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${darkTokens}
    }
  }
  :host([variant='inline']) {
    display: block;
  }
  button {
    font: inherit;
    color: inherit;
  }
  .launcher {
    position: fixed;
    right: max(20px, env(safe-area-inset-right));
    bottom: max(20px, env(safe-area-inset-bottom));
    z-index: var(--_z);
    display: inline-flex;
    align-items: center;
    gap: 8px;
    padding: 11px 16px 11px 14px;
    border: 0;
    border-radius: 999px;
    background: var(--_accent);
    color: var(--_accent-fg);
    font-weight: 600;
    font-size: 15px;
    box-shadow: var(--_shadow);
    cursor: pointer;
    transition: transform 0.15s ease;
  }
  .launcher:hover {
    transform: translateY(-1px);
  }
  .launcher:focus-visible,
  .selection-button:focus-visible {
    outline: 3px solid color-mix(in srgb, var(--_accent) 45%, transparent);
    outline-offset: 3px;
  }
  .launcher kbd {
    font: 500 11px var(--_font);
    padding: 2px 6px;
    border-radius: 6px;
    background: rgb(255 255 255 / 0.18);
  }
  .launcher svg,
  .selection-button svg {
    width: 18px;
    height: 18px;
    flex: none;
  }
  .selection-button {
    position: fixed;
    z-index: var(--_z);
    display: inline-flex;
    align-items: center;
    gap: 6px;
    padding: 6px 10px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_bg);
    color: var(--_fg);
    font-size: 13px;
    font-weight: 600;
    box-shadow: var(--_shadow);
    cursor: pointer;
  }
  .loading {
    position: fixed;
    right: 24px;
    bottom: 84px;
    z-index: var(--_z);
    padding: 8px 12px;
    border-radius: 10px;
    background: var(--_bg);
    color: var(--_muted);
    box-shadow: var(--_shadow);
    font-size: 13px;
  }
  .link {
    border: 0;
    background: none;
    padding: 0 0 0 8px;
    color: var(--_accent);
    text-decoration: underline;
    cursor: pointer;
  }
  @media (max-width: 480px) {
    .launcher kbd {
      display: none;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
      animation: none !important;
    }
  }
`
