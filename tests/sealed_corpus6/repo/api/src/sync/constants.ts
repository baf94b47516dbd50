// Limits for the /v2/sync endpoint. The Android client reads the same
// values from SyncConfig.kt; keep them in step.
export const MAX_BATCH = 250;
export const SYNC_TIMEOUT_MS = 30_000;
export const TOMBSTONE_TTL_DAYS = 90;
export const CLOCK_SKEW_TOLERANCE_MS = 120_000;
