use std::path::PathBuf;

use clap::{Parser, ValueEnum};

#[derive(Parser, Debug)]
#[command(name = "driftwood", version, about = "Detect Postgres schema drift")]
pub struct Args {
    /// Database to check.
    #[arg(long, env = crate::config::ENV_DATABASE_URL)]
    pub database_url: Option<String>,

    /// Migrations directory.
    #[arg(long, default_value = "./migrations")]
    pub migrations: PathBuf,

    /// Schema to compare (repeatable).
    #[arg(long = "schema")]
    pub schemas: Vec<String>,

    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Config file.
    #[arg(long, default_value = crate::config::DEFAULT_CONFIG_FILE)]
    pub config: PathBuf,

    /// File of globs naming objects to skip.
    #[arg(long)]
    pub ignore_file: Option<PathBuf>,
}

#[derive(Copy, Clone, Debug, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    Json,
    Sarif,
}
