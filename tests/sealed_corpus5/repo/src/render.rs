use std::io::{self, Write};

use crate::{cli::Format, diff::Drift};

/// The SARIF version we emit.
pub const SARIF_VERSION: &str = "2.1.0";

pub fn render(drift: &[Drift], format: Format, out: &mut impl Write) -> io::Result<()> {
    match format {
        Format::Text => render_text(drift, out),
        Format::Json => render_json(drift, out),
        Format::Sarif => render_sarif(drift, out),
    }
}

fn render_text(drift: &[Drift], out: &mut impl Write) -> io::Result<()> {
    if drift.is_empty() {
        return writeln!(out, "no drift");
    }
    for d in drift {
        writeln!(out, "{d:?}")?;
    }
    writeln!(out, "{} difference(s)", drift.len())
}

fn render_json(drift: &[Drift], out: &mut impl Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, drift)?;
    writeln!(out)
}

fn render_sarif(drift: &[Drift], out: &mut impl Write) -> io::Result<()> {
    let results: Vec<_> = drift
        .iter()
        .map(|d| serde_json::json!({ "ruleId": rule_id(d), "message": { "text": format!("{d:?}") } }))
        .collect();
    let doc = serde_json::json!({
        "version": SARIF_VERSION,
        "runs": [{ "tool": { "driver": { "name": "driftwood" } }, "results": results }],
    });
    serde_json::to_writer(&mut *out, &doc)?;
    writeln!(out)
}

fn rule_id(d: &Drift) -> &'static str {
    match d {
        Drift::MissingTable { .. } => "DW001",
        Drift::ExtraTable { .. } => "DW002",
        Drift::ColumnType { .. } => "DW003",
        Drift::MissingIndex { .. } => "DW004",
        Drift::ExtraIndex { .. } => "DW005",
        Drift::ConstraintChanged { .. } => "DW006",
        Drift::OwnerChanged { .. } => "DW007",
    }
}
