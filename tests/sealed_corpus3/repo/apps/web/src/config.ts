// How often the console refreshes ETAs for the open run.
export const ETA_POLL_MS = 15_000;

export const MAP_DEFAULT_ZOOM = 12;

// Locales shipped for parent-facing strings.
export const SUPPORTED_LOCALES = ["en", "es", "ko", "pt-BR"] as const;
