use globset::GlobSet;

use crate::introspect::{Column, Schema};

#[derive(Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Drift {
    MissingTable { name: String },
    ExtraTable { name: String },
    ColumnType { table: String, column: String, expected: String, actual: String },
    MissingIndex { name: String },
    ExtraIndex { name: String },
    ConstraintChanged { table: String, name: String },
    OwnerChanged { object: String, expected: String, actual: String },
}

/// Compare the schema the migrations produce (`expected`) with the live one
/// (`actual`). Objects matching `ignore` are skipped. Owners are compared only
/// when `compare_owners` is set.
pub fn diff_schemas(
    expected: &Schema,
    actual: &Schema,
    ignore: &GlobSet,
    compare_owners: bool,
) -> Vec<Drift> {
    let mut out = Vec::new();
    for table in expected.tables.values() {
        if ignore.is_match(&table.qualified_name) {
            continue;
        }
        match actual.tables.get(&table.qualified_name) {
            None => out.push(Drift::MissingTable { name: table.qualified_name.clone() }),
            Some(live) => {
                for col in &table.columns {
                    if let Some(l) = live.columns.iter().find(|c| c.name == col.name) {
                        if normalize_type(col) != normalize_type(l) {
                            out.push(Drift::ColumnType {
                                table: table.qualified_name.clone(),
                                column: col.name.clone(),
                                expected: col.data_type.clone(),
                                actual: l.data_type.clone(),
                            });
                        }
                    }
                }
                if compare_owners && table.owner != live.owner {
                    out.push(Drift::OwnerChanged {
                        object: table.qualified_name.clone(),
                        expected: table.owner.clone(),
                        actual: live.owner.clone(),
                    });
                }
            }
        }
    }
    for name in actual.tables.keys() {
        if !expected.tables.contains_key(name) && !ignore.is_match(name) {
            out.push(Drift::ExtraTable { name: name.clone() });
        }
    }
    for idx in expected.indexes.difference(&actual.indexes) {
        out.push(Drift::MissingIndex { name: idx.clone() });
    }
    for idx in actual.indexes.difference(&expected.indexes) {
        out.push(Drift::ExtraIndex { name: idx.clone() });
    }
    out
}

fn normalize_type(c: &Column) -> String {
    c.data_type.replace("character varying", "varchar").to_lowercase()
}
