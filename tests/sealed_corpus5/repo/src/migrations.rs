use std::path::Path;

use crate::{
    config::{Config, Error, SHADOW_DB_PREFIX},
    introspect::Schema,
};

#[derive(Debug, PartialEq, Eq)]
pub enum Layout {
    /// `20260101120000_name.sql` or `.up.sql` / `.down.sql` pairs.
    Sqlx,
    /// `V1__name.sql`.
    Refinery,
    /// `V1__name.sql` with a `flyway.conf` beside them.
    Flyway,
}

pub fn detect_layout(dir: &Path) -> Option<Layout> {
    if dir.join("flyway.conf").exists() {
        return Some(Layout::Flyway);
    }
    let names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    if names.iter().any(|n| n.starts_with('V') && n.contains("__")) {
        Some(Layout::Refinery)
    } else if names.iter().any(|n| n.len() > 15 && n[..14].bytes().all(|b| b.is_ascii_digit())) {
        Some(Layout::Sqlx)
    } else {
        None
    }
}

/// Apply the forward migrations to a fresh shadow database named
/// `driftwood_shadow_<pid>`, read its schema, then drop it.
pub async fn build_shadow(cfg: &Config) -> Result<Schema, Error> {
    let layout = detect_layout(&cfg.migrations)
        .ok_or_else(|| Error::Config(format!("no migrations found in {}", cfg.migrations.display())))?;
    let name = format!("{SHADOW_DB_PREFIX}{}", std::process::id());
    crate::introspect::with_scratch_database(cfg, &name, |client| async move {
        crate::introspect::apply_files(&client, &cfg.migrations, &layout).await
    })
    .await
}
