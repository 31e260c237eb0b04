/** The assistant key the dev server found (`VITE_DOCENT_ASSISTANT_KEY`, or the one `npm start` keeps); '' if none. */
declare const __DOCENT_DEFAULT_KEY__: string
