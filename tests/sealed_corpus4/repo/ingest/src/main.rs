mod config;
mod sensors;

#[tokio::main]
async fn main() {
    tracing::info!("brinewick-ingest starting");
    let cfg = config::Config::from_env();
    sensors::run(cfg).await;
}
