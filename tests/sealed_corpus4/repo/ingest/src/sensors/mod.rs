pub mod lora;

use crate::config::Config;

pub async fn run(cfg: Config) {
    lora::listen(&cfg).await;
}
