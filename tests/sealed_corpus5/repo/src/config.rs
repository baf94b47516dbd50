use std::{path::PathBuf, sync::LazyLock, time::Duration};

use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;

use crate::cli::{Args, Format};

pub const DEFAULT_CONFIG_FILE: &str = "driftwood.toml";
pub const DEFAULT_IGNORE_FILE: &str = ".driftwoodignore";
pub const DEFAULT_SCHEMA: &str = "public";
pub const ENV_DATABASE_URL: &str = "DRIFTWOOD_DATABASE_URL";

/// How long to wait for a connection before giving up (exit code 3).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Per-statement timeout set on every session driftwood opens.
pub const STATEMENT_TIMEOUT_MS: u64 = 30_000;

/// Catalog queries run concurrently, at most this many at a time.
pub const MAX_PARALLEL_QUERIES: usize = 4;

/// Prefix of the shadow database; the process id is appended.
pub const SHADOW_DB_PREFIX: &str = "driftwood_shadow_";

static IDENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[a-z_][a-z0-9_$]*$").unwrap());

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("config: {0}")]
    Config(String),
    #[error("could not connect: {0}")]
    Connect(#[from] tokio_postgres::Error),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

pub struct Config {
    pub database_url: String,
    pub schemas: Vec<String>,
    pub migrations: PathBuf,
    pub format: Format,
    pub ignore_file: PathBuf,
    pub compare_owners: bool,
}

pub fn load(args: &Args) -> Result<Config, Error> {
    let database_url = args
        .database_url
        .clone()
        .ok_or_else(|| Error::Config("no database URL (--database-url or DRIFTWOOD_DATABASE_URL)".into()))?;
    let schemas = if args.schemas.is_empty() {
        vec![DEFAULT_SCHEMA.to_string()]
    } else {
        args.schemas.clone()
    };
    for s in &schemas {
        if !IDENT.is_match(s) {
            return Err(Error::Config(format!("not a plain schema name: {s}")));
        }
    }
    Ok(Config {
        database_url,
        schemas,
        migrations: args.migrations.clone(),
        format: args.format,
        ignore_file: args.ignore_file.clone().unwrap_or_else(|| DEFAULT_IGNORE_FILE.into()),
        compare_owners: false,
    })
}

pub fn load_ignore(cfg: &Config) -> Result<GlobSet, Error> {
    let mut builder = GlobSetBuilder::new();
    if let Ok(text) = std::fs::read_to_string(&cfg.ignore_file) {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let glob = Glob::new(line).map_err(|e| Error::Config(e.to_string()))?;
            builder.add(glob);
        }
    }
    builder.build().map_err(|e| Error::Config(e.to_string()))
}
