// UI tunables. Server-side limits live in services/api/app/search.py.
export const SEARCH_DEBOUNCE_MS = 250;
export const RESULTS_PER_PAGE = 20;
export const SUPPORTED_LOCALES = ["en", "es", "pl"] as const;
export const DEFAULT_LOCALE = "en";
