mod pg;

use std::collections::{BTreeMap, BTreeSet};

pub use pg::{apply_files, read_schema, with_scratch_database};

#[derive(Debug, Default)]
pub struct Schema {
    pub tables: BTreeMap<String, Table>,
    pub indexes: BTreeSet<String>,
}

#[derive(Debug)]
pub struct Table {
    pub qualified_name: String,
    pub owner: String,
    pub columns: Vec<Column>,
}

#[derive(Debug)]
pub struct Column {
    pub name: String,
    pub data_type: String,
}
