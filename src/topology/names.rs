//! Tool names derived from agent names, the way the OpenAI Agents SDK derives them, so an
//! exported topology and a recorded SDK trace use the same names as Baton's runs.

use super::EdgeKind;

/// `Technical Support` → `technical_support` (the SDK's `transform_string_function_style`:
/// spaces and every other non-alphanumeric character become `_`, then lowercase).
pub fn snake_case(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect()
}

/// `transfer_to_<snake>` for a handoff, `<snake>` for a delegation.
pub fn default_tool_name(kind: EdgeKind, target_name: &str) -> String {
    match kind {
        EdgeKind::Handoff => format!("transfer_to_{}", snake_case(target_name)),
        EdgeKind::Delegation => snake_case(target_name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_sdk() {
        assert_eq!(snake_case("Technical Support"), "technical_support");
        assert_eq!(snake_case("Billing-Agent v2"), "billing_agent_v2");
        assert_eq!(default_tool_name(EdgeKind::Handoff, "Billing"), "transfer_to_billing");
        assert_eq!(default_tool_name(EdgeKind::Delegation, "Resolution"), "resolution");
    }
}
