import { css } from 'lit'

/**
 * Theme tokens and the launcher. Pages theme the widget with the `--docent-*` custom properties; the element's
 * `scheme` attribute (set from `theme`, the page's own switch or the system) picks the light or dark set.
 *
 * Brand colours stay as the page gives them; what is derived keeps text readable on any of them: the text on an
 * accent-coloured surface is black or white by the accent's lightness (unless `--docent-accent-foreground` is set),
 * and links use the accent darkened (light) or lightened (dark) only as far as contrast needs.
 */
export const launcherStyles = css`
  :host {
    /* Nothing the page sets on body (text-transform, letter-spacing, italics, alignment…) is inherited inside. */
    all: initial;
    --_accent: var(--docent-accent, #4f46e5);
    --_accent-fg: var(--docent-accent-foreground, #ffffff);
    --_link: var(--_accent);
    --_bg: var(--docent-background, #ffffff);
    --_fg: var(--docent-foreground, #111827);
    --_muted: var(--docent-muted, #5b6270);
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
    --_code-comment: var(--docent-code-comment, #5b6270);
    display: contents;
    font-family: var(--_font);
    font-size: 16px;
    line-height: 1.5;
    color: var(--_fg);
    color-scheme: light;
    text-align: start;
  }
  :host([scheme='dark']) {
    --_accent: var(--docent-accent-dark, var(--docent-accent, #818cf8));
    --_accent-fg: var(--docent-accent-foreground-dark, var(--docent-accent-foreground, #0b1020));
    --_bg: var(--docent-background-dark, #111827);
    --_fg: var(--docent-foreground-dark, #f3f4f6);
    --_muted: var(--docent-muted-dark, #a3acb9);
    --_surface: var(--docent-surface-dark, #1f2937);
    --_border: var(--docent-border-dark, #374151);
    --_danger: var(--docent-danger-dark, #fca5a5);
    --_code-string: var(--docent-code-string, #86efac);
    --_code-number: var(--docent-code-number, #fcd34d);
    --_code-keyword: var(--docent-code-keyword, #c4b5fd);
    --_code-command: var(--docent-code-command, #93c5fd);
    --_code-comment: var(--docent-code-comment, #a3acb9);
    color-scheme: dark;
  }
  @supports (color: oklch(from red l c h)) {
    :host {
      --_accent-fg: var(--docent-accent-foreground, oklch(from var(--_accent) clamp(0, (0.6 - l) * 1000, 1) 0 0));
      --_link: oklch(from var(--_accent) min(l, 0.5) c h);
    }
    :host([scheme='dark']) {
      --_accent-fg: var(
        --docent-accent-foreground-dark,
        var(--docent-accent-foreground, oklch(from var(--_accent) clamp(0, (0.6 - l) * 1000, 1) 0 0))
      );
      --_link: oklch(from var(--_accent) max(l, 0.78) c h);
    }
  }
  /* In the top layer (launcher-top-layer.ts): a box of no size, so that only the fixed launcher and panel show;
     important, so that a page's own [popover] rules (padding, border, background) do not draw a square mid-screen. */
  :host(:popover-open) {
    width: 0 !important;
    height: 0 !important;
    padding: 0 !important;
    border: 0 !important;
    background: none !important;
  }
  :host([variant='inline']) {
    display: block;
  }
  button {
    font: inherit;
    color: inherit;
    letter-spacing: normal;
    text-transform: none;
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
  :host([side='left']) .launcher {
    right: auto;
    left: max(20px, env(safe-area-inset-left));
  }
  :host([align='center']) .launcher {
    bottom: auto;
    top: 50%;
    translate: 0 -50%;
  }
  .launcher:hover {
    transform: translateY(-1px);
  }
  .launcher:focus-visible,
  .selection-button:focus-visible,
  .link:focus-visible {
    outline: 3px solid var(--_link);
    outline-offset: 3px;
  }
  .launcher kbd {
    font: 500 11px var(--_font);
    padding: 1px 5px;
    border-radius: 6px;
    /* An outline, not a tint: the text keeps the launcher's own contrast on any accent. */
    border: 1px solid color-mix(in srgb, var(--_accent-fg) 50%, transparent);
  }
  .launcher svg,
  .launcher img,
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
    max-width: min(360px, calc(100vw - 48px));
    padding: 10px 14px;
    border-radius: 10px;
    background: var(--_bg);
    color: var(--_fg);
    box-shadow: var(--_shadow);
    font-size: 14px;
  }
  .link {
    border: 0;
    background: none;
    padding: 0 0 0 8px;
    color: var(--_link);
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
