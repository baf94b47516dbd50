/// Readings written to Postgres in one insert.
pub const MAX_BATCH_SIZE: usize = 500;
/// How often the gateway poller asks each gateway for queued uplinks.
pub const SENSOR_POLL_INTERVAL_SECS: u64 = 30;
/// A reading above this is a temperature excursion.
pub const EXCURSION_THRESHOLD_C: f32 = 4.0;
/// Gateway fetch attempts before a gateway is skipped for this cycle.
pub const GATEWAY_RETRY_LIMIT: u32 = 5;

pub struct Config {
    pub database_url: String,
}

impl Config {
    pub fn from_env() -> Self {
        Config { database_url: std::env::var("DATABASE_URL").expect("DATABASE_URL") }
    }
}
