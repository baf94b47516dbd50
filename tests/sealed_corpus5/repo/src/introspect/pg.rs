use tokio_postgres::Client;

use super::Schema;
use crate::config::{Config, Error, CONNECT_TIMEOUT, MAX_PARALLEL_QUERIES, STATEMENT_TIMEOUT_MS};

const TABLES_SQL: &str = "
    SELECT n.nspname || '.' || c.relname, pg_catalog.pg_get_userbyid(c.relowner)
    FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1)";

const COLUMNS_SQL: &str = "
    SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)
    FROM pg_catalog.pg_attribute a
    WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum";

const INDEXES_SQL: &str = "
    SELECT pg_catalog.pg_get_indexdef(i.indexrelid)
    FROM pg_catalog.pg_index i
    JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ANY($1)";

pub async fn read_schema(cfg: &Config) -> Result<Schema, Error> {
    let client = connect(&cfg.database_url).await?;
    read_with(&client, &cfg.schemas, MAX_PARALLEL_QUERIES).await
}

async fn connect(url: &str) -> Result<Client, Error> {
    let tls = tokio_postgres_rustls::MakeRustlsConnect::new(rustls_config());
    let (client, conn) = tokio::time::timeout(CONNECT_TIMEOUT, tokio_postgres::connect(url, tls))
        .await
        .map_err(|_| Error::Config("connect timed out".into()))??;
    tokio::spawn(conn);
    client
        .batch_execute(&format!("SET statement_timeout = {STATEMENT_TIMEOUT_MS}; SET default_transaction_read_only = on"))
        .await?;
    Ok(client)
}
