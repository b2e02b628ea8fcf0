//! The JSON Schema of the topology format, generated from the Rust types (checked in at
//! `schema/topology.schema.json`; a test keeps the two equal).

use crate::topology::Topology;

/// The schema as pretty JSON text, ending with a newline.
pub fn topology_schema() -> String {
    let schema = schemars::schema_for!(Topology);
    serde_json::to_string_pretty(&schema).expect("a schema always serializes") + "\n"
}
