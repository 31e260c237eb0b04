/** Where the chat opens: its own module, so the launcher and the panel share it without importing each other. */
export type Variant = 'floating' | 'modal' | 'inline' | 'sidepanel'
