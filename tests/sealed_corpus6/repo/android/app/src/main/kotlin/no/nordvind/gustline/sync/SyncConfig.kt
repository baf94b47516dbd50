package no.nordvind.gustline.sync

/** Mirrors api/src/sync/constants.ts. */
object SyncConfig {
    const val MAX_BATCH = 250
    const val BACKOFF_BASE_MS = 2_000L
    const val BACKOFF_MAX_MS = 15 * 60 * 1_000L
    const val MAX_RETRIES = 6
    /** WorkManager periodic sync; Android will not run it more often than 15 min. */
    const val PERIODIC_SYNC_MINUTES = 30L
}
