import { css } from 'lit'

/** The panel's look; loaded with the panel's code. Colors come from the tokens in launcher-styles. */
export const panelStyles = css`
  :host {
    display: contents;
  }
  :host([hidden]) {
    display: none !important;
  }
  .panel {
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    background: var(--_bg);
    color: var(--_fg);
    font-family: var(--_font);
    font-size: 15px;
    line-height: 1.55;
    overflow: hidden;
  }
  .panel *,
  .panel *::before,
  .panel *::after {
    box-sizing: border-box;
  }
  .panel.floating,
  .panel.modal {
    position: fixed;
    z-index: var(--_z);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    animation: docent-in 0.16s ease-out;
  }
  .panel.floating {
    right: 20px;
    bottom: 20px;
    width: var(--docent-panel-width, 420px);
    height: min(var(--docent-panel-height, 640px), calc(100vh - 40px));
  }
  .panel.modal {
    left: 50%;
    top: 50%;
    transform: translate(-50%, -50%);
    width: min(var(--docent-panel-width, 680px), calc(100vw - 32px));
    height: min(var(--docent-panel-height, 720px), calc(100vh - 64px));
  }
  .panel.floating.left {
    right: auto;
    left: 20px;
  }
  .panel.sidepanel {
    position: fixed;
    z-index: var(--_z);
    top: 0;
    bottom: 0;
    right: 0;
    width: min(var(--docent-panel-width, 440px), 100vw);
    border-left: 1px solid var(--_border);
    box-shadow: var(--_shadow);
    animation: docent-slide 0.18s ease-out;
  }
  .panel.sidepanel.left {
    right: auto;
    left: 0;
    border-left: 0;
    border-right: 1px solid var(--_border);
  }
  @keyframes docent-slide {
    from {
      translate: 24px 0;
      opacity: 0;
    }
  }
  .panel.inline {
    width: 100%;
    height: var(--docent-panel-height, 560px);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .backdrop {
    position: fixed;
    inset: 0;
    z-index: var(--_z);
    background: rgb(15 23 42 / 0.45);
    backdrop-filter: blur(2px);
  }
  @keyframes docent-in {
    from {
      opacity: 0;
      translate: 0 8px;
    }
  }
  /* The title is never cut short: when it and the tools do not fit on one line (a narrow phone, a longer language),
     the tools move to a line of their own, and a title longer than the panel wraps. */
  .header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
    padding: 10px 10px 10px 14px;
    border-bottom: 1px solid var(--_border);
  }
  .header h2 {
    flex: 1 1 auto;
    min-width: 0;
    margin: 0 0 0 4px;
    font-size: 15px;
    font-weight: 650;
    overflow-wrap: anywhere;
  }
  .tools {
    display: flex;
    align-items: center;
    gap: 6px;
    margin-inline-start: auto;
  }
  .modes {
    display: inline-flex;
    padding: 2px;
    border-radius: 9px;
    background: var(--_surface);
  }
  .modes button {
    border: 0;
    border-radius: 7px;
    padding: 4px 8px;
    background: transparent;
    color: var(--_muted);
    font-size: 13px;
    font-weight: 600;
    cursor: pointer;
  }
  .modes button[aria-pressed='true'] {
    background: var(--_bg);
    color: var(--_fg);
    box-shadow: 0 1px 2px rgb(0 0 0 / 0.12);
  }
  .logo {
    display: grid;
    place-items: center;
    width: 28px;
    height: 28px;
    border-radius: 8px;
    background: var(--_accent);
    color: var(--_accent-fg);
  }
  .logo svg,
  .logo img {
    width: 16px;
    height: 16px;
  }
  .logo.image {
    background: none;
  }
  .logo.image img {
    width: 28px;
    height: 28px;
    object-fit: contain;
  }
  button.icon {
    display: inline-grid;
    place-items: center;
    width: 34px;
    height: 34px;
    padding: 0;
    border: 0;
    border-radius: 8px;
    background: transparent;
    color: var(--_muted);
    cursor: pointer;
  }
  button.icon.small {
    width: 30px;
    height: 30px;
  }
  button.icon:hover,
  button.icon.on {
    background: var(--_surface);
    color: var(--_fg);
  }
  button.icon.on {
    color: var(--_accent);
  }
  button.icon svg {
    width: 18px;
    height: 18px;
  }
  button.icon.small svg {
    width: 16px;
    height: 16px;
  }
  .panel button:focus-visible,
  .panel a:focus-visible,
  .panel textarea:focus-visible,
  .panel [role='option']:focus-visible,
  .panel [tabindex='0']:focus-visible {
    outline: 2px solid var(--_link);
    outline-offset: 2px;
  }
  .messages {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 14px;
  }
  .welcome p {
    margin: 0 0 12px;
    color: var(--_muted);
  }
  .starters {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 8px;
  }
  .starters button {
    color: var(--_fg);
    width: 100%;
    text-align: start;
    padding: 10px 12px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
    cursor: pointer;
    font-size: 14px;
  }
  .starters button:hover {
    border-color: var(--_accent);
    background: var(--_surface);
  }
  .message p {
    margin: 0 0 8px;
  }
  .message p:last-child {
    margin-bottom: 0;
  }
  .message.user {
    align-self: flex-end;
    max-width: 85%;
    padding: 9px 13px;
    border-radius: 14px 14px 4px 14px;
    background: var(--_accent);
    color: var(--_accent-fg);
    overflow-wrap: anywhere;
  }
  .message.user p {
    white-space: pre-wrap;
  }
  .message.assistant {
    overflow-wrap: anywhere;
  }
  .answer .heading {
    font-weight: 650;
    margin-top: 12px;
  }
  .answer ul,
  .answer ol {
    margin: 0 0 8px;
    padding-left: 22px;
  }
  .answer li {
    margin: 2px 0;
  }
  .answer a,
  .support a {
    color: var(--_link);
  }
  .answer a.cite {
    display: inline-grid;
    place-items: center;
    min-width: 17px;
    height: 17px;
    padding: 0 4px;
    margin: 0 1px;
    border-radius: 5px;
    background: color-mix(in srgb, var(--_accent) 14%, transparent);
    color: var(--_link);
    font-size: 11px;
    font-weight: 600;
    line-height: 1;
    text-decoration: none;
    vertical-align: 2px;
  }
  .answer a.cite:hover {
    background: var(--_accent);
    color: var(--_accent-fg);
  }
  .answer code {
    font-family: var(--_mono);
    font-size: 0.9em;
    padding: 1px 5px;
    border-radius: 5px;
    background: var(--_surface);
  }
  .answer blockquote {
    margin: 0 0 8px;
    padding-left: 12px;
    border-left: 3px solid var(--_border);
    color: var(--_muted);
  }
  .code {
    margin: 0 0 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    overflow: hidden;
    background: var(--_surface);
  }
  .code-bar {
    display: flex;
    justify-content: space-between;
    align-items: center;
    padding: 4px 6px 4px 12px;
    font-size: 12px;
    color: var(--_muted);
    border-bottom: 1px solid var(--_border);
  }
  .copy-code {
    border: 0;
    background: transparent;
    color: var(--_muted);
    font-size: 12px;
    padding: 3px 8px;
    border-radius: 6px;
    cursor: pointer;
  }
  .copy-code:hover {
    background: var(--_bg);
    color: var(--_fg);
  }
  .code pre {
    margin: 0;
    padding: 10px 12px;
    overflow-x: auto;
  }
  .code pre code {
    padding: 0;
    background: none;
    font-size: 12.5px;
    line-height: 1.5;
  }
  .tok-comment {
    color: var(--_code-comment);
    font-style: italic;
  }
  .tok-string {
    color: var(--_code-string);
  }
  .tok-number {
    color: var(--_code-number);
  }
  .tok-keyword {
    color: var(--_code-keyword);
  }
  .tok-command {
    color: var(--_code-command);
    font-weight: 600;
  }
  .table {
    overflow-x: auto;
    margin: 0 0 10px;
  }
  .answer table {
    border-collapse: collapse;
    font-size: 13px;
  }
  .answer th,
  .answer td {
    border: 1px solid var(--_border);
    padding: 5px 9px;
    text-align: start;
  }
  .answer th {
    background: var(--_surface);
  }
  .answer .align-center {
    text-align: center;
  }
  .answer .align-right {
    text-align: right;
  }
  .sources {
    margin-top: 10px;
  }
  .sources h3 {
    margin: 0 0 6px;
    font-size: 12px;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--_muted);
  }
  .sources ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
  }
  .sources li {
    max-width: 100%;
    min-width: 0;
  }
  .sources a {
    display: inline-flex;
    align-items: center;
    gap: 5px;
    max-width: 100%;
    padding: 4px 9px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 12.5px;
    text-decoration: none;
    color: var(--_fg);
    background: var(--_bg);
  }
  .sources a:hover {
    border-color: var(--_accent);
  }
  .sources .numbers {
    color: var(--_muted);
    font-size: 11px;
  }
  .sources svg {
    width: 13px;
    height: 13px;
    flex: none;
    color: var(--_muted);
  }
  .sources span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .actions {
    display: flex;
    align-items: center;
    gap: 2px;
    margin-top: 6px;
  }
  .note {
    font-size: 12px;
    color: var(--_muted);
    margin-left: 6px;
  }
  .ended {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
    margin-top: 8px;
    font-size: 13px;
    color: var(--_muted);
  }
  .support {
    margin-top: 8px;
    padding: 8px 10px;
    border-radius: 10px;
    background: var(--_surface);
    font-size: 13.5px;
  }
  .support a {
    font-weight: 600;
  }
  .feedback-form {
    margin-top: 8px;
    display: grid;
    gap: 6px;
  }
  .feedback-form label {
    font-size: 13px;
    font-weight: 600;
  }
  .feedback-form textarea {
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: 6px 8px;
    min-height: 60px;
    max-height: 160px;
  }
  .feedback-form .row {
    display: flex;
    gap: 6px;
  }
  .search-box {
    display: flex;
    align-items: center;
    gap: 8px;
    margin: 12px 14px 4px;
    padding: 4px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
  }
  .search-box:focus-within {
    border-color: var(--_accent);
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--_accent) 18%, transparent);
  }
  .search-box svg {
    width: 17px;
    height: 17px;
    color: var(--_muted);
    flex: none;
  }
  .search-box input {
    flex: 1;
    min-width: 0;
    border: 0;
    outline: none;
    background: transparent;
    color: var(--_fg);
    font: inherit;
    font-size: 16px;
    padding: 6px 0;
  }
  .search-box input::placeholder {
    color: var(--_muted);
  }
  .results {
    flex: 1;
    overflow-y: auto;
    list-style: none;
    margin: 0;
    padding: 6px 8px 12px;
  }
  .results [role='option'] {
    display: block;
    padding: 8px 10px;
    border-radius: 9px;
    cursor: pointer;
  }
  .results [role='option'][aria-selected='true'] {
    background: var(--_surface);
    box-shadow: inset 3px 0 0 var(--_accent);
  }
  .results .title {
    display: flex;
    align-items: center;
    gap: 6px;
    font-weight: 600;
  }
  .results .title svg {
    width: 15px;
    height: 15px;
    flex: none;
    color: var(--_muted);
  }
  .results .snippet,
  .results .sections {
    display: block;
    margin-top: 2px;
    font-size: 13px;
    color: var(--_muted);
  }
  .results .ask .title {
    color: var(--_link);
  }
  .search-status {
    margin: 8px 18px;
    font-size: 13.5px;
    color: var(--_muted);
  }
  .history {
    flex: 1;
    overflow-y: auto;
    list-style: none;
    margin: 0;
    padding: 8px;
  }
  .history li {
    display: flex;
    align-items: center;
    gap: 4px;
    border-radius: 9px;
  }
  .history li.current {
    background: var(--_surface);
  }
  .history .open {
    flex: 1;
    min-width: 0;
    display: grid;
    text-align: start;
    padding: 8px 10px;
    border: 0;
    border-radius: 9px;
    background: transparent;
    cursor: pointer;
  }
  .history .open:hover {
    background: var(--_surface);
  }
  .history .open span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .history .open small {
    color: var(--_muted);
    font-size: 12px;
  }
  .thinking {
    display: flex;
    align-items: center;
    gap: 10px;
    color: var(--_muted);
    font-size: 13.5px;
  }
  .dots {
    display: inline-flex;
    gap: 4px;
  }
  .dots i {
    width: 6px;
    height: 6px;
    border-radius: 50%;
    background: var(--_accent);
    animation: docent-pulse 1s infinite ease-in-out;
  }
  .dots i:nth-child(2) {
    animation-delay: 0.15s;
  }
  .dots i:nth-child(3) {
    animation-delay: 0.3s;
  }
  @keyframes docent-pulse {
    50% {
      opacity: 0.25;
    }
  }
  .error {
    padding: 10px 12px;
    border-radius: 10px;
    border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent);
    background: color-mix(in srgb, var(--_danger) 8%, var(--_bg));
    color: var(--_danger);
  }
  .error p {
    margin: 0 0 8px;
  }
  .pill {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    padding: 5px 11px;
    border: 1px solid currentColor;
    border-radius: 999px;
    background: transparent;
    cursor: pointer;
    font-size: 13px;
  }
  .pill svg {
    width: 14px;
    height: 14px;
  }
  form {
    padding: 10px 12px 8px;
    border-top: 1px solid var(--_border);
  }
  .chip {
    display: flex;
    align-items: center;
    gap: 8px;
    margin-bottom: 8px;
    padding: 6px 6px 6px 10px;
    border-radius: 10px;
    background: var(--_surface);
    font-size: 12.5px;
    color: var(--_muted);
  }
  .chip > svg {
    width: 14px;
    height: 14px;
    flex: none;
  }
  .chip span {
    flex: 1;
    overflow: hidden;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
  }
  .composer-row {
    display: flex;
    align-items: flex-end;
    gap: 8px;
    padding: 6px 6px 6px 12px;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_bg);
  }
  .composer-row:focus-within {
    border-color: var(--_accent);
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--_accent) 18%, transparent);
  }
  textarea {
    flex: 1;
    /* Tall enough for the whole placeholder, which wraps on a narrow phone instead of being cut off. */
    field-sizing: content;
    resize: none;
    border: 0;
    outline: none;
    background: transparent;
    color: var(--_fg);
    font: inherit;
    /* 16px or more: iOS Safari zooms the page into smaller fields on focus. */
    font-size: 16px;
    padding: 6px 0;
    max-height: 160px;
  }
  .panel textarea:focus-visible {
    outline: none;
  }
  textarea::placeholder {
    color: var(--_muted);
  }
  .send {
    display: grid;
    place-items: center;
    width: 34px;
    height: 34px;
    flex: none;
    border: 0;
    border-radius: 9px;
    background: var(--_accent);
    color: var(--_accent-fg);
    cursor: pointer;
  }
  .send.stop {
    background: var(--_fg);
    color: var(--_bg);
  }
  .send svg {
    width: 17px;
    height: 17px;
  }
  .count,
  .too-long {
    margin: 6px 2px 0;
    font-size: 12.5px;
    color: var(--_muted);
    text-align: end;
  }
  .count.over,
  .too-long {
    color: var(--_danger);
    font-weight: 600;
  }
  .too-long {
    text-align: start;
  }
  .disclaimer {
    margin: 6px 2px 0;
    font-size: 11.5px;
    color: var(--_muted);
    text-align: center;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (max-width: 480px) {
    .panel.floating,
    .panel.modal,
    .panel.sidepanel {
      inset: 0;
      width: 100%;
      height: 100%;
      transform: none;
      border-radius: 0;
      border: 0;
    }
    .message.user {
      max-width: 92%;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
      animation: none !important;
    }
  }
`
