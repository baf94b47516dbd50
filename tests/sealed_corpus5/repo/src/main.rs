mod cli;
mod config;
mod diff;
mod exit;
mod introspect;
mod migrations;
mod render;

use std::process::ExitCode;

use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    let args = cli::Args::parse();
    match run(args).await {
        Ok(code) => code.into(),
        Err(err) => {
            eprintln!("driftwood: {err}");
            exit::Exit::from(&err).into()
        }
    }
}

async fn run(args: cli::Args) -> Result<exit::Exit, config::Error> {
    let cfg = config::load(&args)?;
    let expected = migrations::build_shadow(&cfg).await?;
    let actual = introspect::read_schema(&cfg).await?;
    let ignore = config::load_ignore(&cfg)?;
    let drift = diff::diff_schemas(&expected, &actual, &ignore, cfg.compare_owners);
    render::render(&drift, cfg.format, &mut std::io::stdout())?;
    Ok(if drift.is_empty() { exit::Exit::Clean } else { exit::Exit::Drift })
}
