//! The lint rules, one file each: its `//!` line says what it catches and how to fix it, its
//! `SEVERITY`, and its `check`. This list registers them and gives each its stable code.

use super::{Cx, Finding, Severity};

mod prelude {
    pub(crate) use super::super::finding;
    pub use super::super::{Cx, Finding, Severity};
    pub use super::LintCode;
    pub use crate::topology::{Acceptance, AgentKind, ContextPolicy, EdgeKind, OnRevisit};
}

macro_rules! rules {
    ($( $module:ident => $variant:ident = $code:literal, )*) => {
        $(mod $module;)*

        /// Every lint rule's stable code.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize, serde::Deserialize, schemars::JsonSchema, ts_rs::TS,
        )]
        pub enum LintCode {
            $(#[serde(rename = $code)] $variant,)*
        }

        impl LintCode {

            pub fn as_str(self) -> &'static str {
                match self { $(LintCode::$variant => $code,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(LintCode::$variant => $module::SEVERITY,)* }
            }
        }

        /// Runs every rule.
        pub fn check_all(cx: &Cx, out: &mut Vec<Finding>) {
            $($module::check(cx, out);)*
        }
    };
}

rules! {
    missing_entry => MissingEntry = "missing-entry",
    missing_agent => MissingAgent = "missing-agent",
    duplicate_agent => DuplicateAgent = "duplicate-agent",
    delegation_cycle => DelegationCycle = "delegation-cycle",
    duplicate_tool => DuplicateTool = "duplicate-tool",
    escalate_without_human => EscalateWithoutHuman = "escalate-without-human",
    handoff_cycle => HandoffCycle = "handoff-cycle",
    handoff_back_to_source => HandoffBackToSource = "handoff-back-to-source",
    unguarded_cycle => UnguardedCycle = "unguarded-cycle",
    verify_handoff => VerifyHandoff = "verify-handoff",
    unreachable_agent => UnreachableAgent = "unreachable-agent",
    missing_model => MissingModel = "missing-model",
    delegation_to_human => DelegationToHuman = "delegation-to-human",
    human_outgoing_edge => HumanOutgoingEdge = "human-outgoing-edge",
    script_unknown_tool => ScriptUnknownTool = "script-unknown-tool",
    zero_limit => ZeroLimit = "zero-limit",
    delegation_fan_out => DelegationFanOut = "delegation-fan-out",
    custom_filter => CustomFilter = "custom-filter",
    fact_cannot_cross => FactCannotCross = "fact-cannot-cross",
    expect_unknown => ExpectUnknown = "expect-unknown",
    guardrail_unknown => GuardrailUnknown = "guardrail-unknown",
    verify_without_criteria => VerifyWithoutCriteria = "verify-without-criteria",
}

impl std::fmt::Display for LintCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for LintCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
