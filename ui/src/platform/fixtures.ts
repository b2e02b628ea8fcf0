import type { Topology } from "../model/types";

/** A tiny fixture set for the mock platform (component tests and `?platform=mock` in the dev server). */
export const FIXTURES: Record<string, Topology> = {
  "ticket-reopen.yaml": {
    version: 1,
    name: "ticket-reopen",
    description: "Support tickets pass by handoffs; the meaning of \"resolved\" is lost on the way.",
    entry: "triage",
    agents: [
      {
        id: "triage",
        name: "Triage",
        instructions: "Classify the support ticket and hand it to the right owner immediately.\n",
        model: { provider: "openai", name: "gpt-4o-mini" },
      },
      {
        id: "resolution",
        name: "Resolution",
        instructions: "You fix bugs. Ship every fix behind a feature flag; rollout is manual.\n",
        model: { provider: "openai", name: "gpt-4o" },
        tools: [
          {
            name: "patch_checkout",
            description: "Merge a fix for the checkout flow.",
            parameters: { type: "object", properties: { ticket: { type: "string" } }, required: ["ticket"] },
            mock_result: "Patch merged behind feature flag FIX_4812 (flag is off; manual rollout pending).",
          },
        ],
      },
      {
        id: "verification",
        name: "Verification",
        instructions: "Verify that resolved tickets are really fixed. If the fix is not live, reopen the ticket.\n",
        model: { provider: "openai", name: "gpt-4o-mini" },
      },
    ],
    edges: [
      { id: "triage->resolution", kind: "handoff", from: "triage", to: "resolution" },
      {
        id: "resolution->verification",
        kind: "handoff",
        from: "resolution",
        to: "verification",
        description: "Hand a resolved ticket to verification.",
        policy: {
          fields: [
            { name: "ticket", type: "string" },
            { name: "status", type: "string" },
          ],
        },
        acceptance: "verify",
      },
    ],
    facts: [
      {
        id: "resolved-meaning",
        text: "Resolved means patched behind a feature flag, pending manual rollout.",
        holders: ["resolution"],
      },
    ],
    guards: { max_turns: 10, max_handoffs: 4, on_revisit: "stop" },
    scenarios: [{ name: "flagged-fix", input: "Ticket #4812: the checkout button does nothing on Safari." }],
  },
  "handoff-loop.yaml": {
    version: 1,
    name: "handoff-loop",
    description: "Billing and technical support hand a request back and forth.",
    entry: "triage",
    agents: [
      { id: "triage", name: "Triage", model: { provider: "openai", name: "gpt-4o-mini" } },
      { id: "billing", name: "Billing", model: { provider: "openai", name: "gpt-4o-mini" } },
      { id: "technical", name: "Technical Support", model: { provider: "openai", name: "gpt-4o-mini" } },
      { id: "human", name: "Human Agent", kind: "human", instructions: "A person on the support team takes over." },
    ],
    edges: [
      { kind: "handoff", from: "triage", to: "billing" },
      { kind: "handoff", from: "billing", to: "technical" },
      { kind: "handoff", from: "technical", to: "billing" },
    ],
    guards: { max_turns: 10, max_handoffs: 6, on_revisit: "escalate", escalate_to: "human" },
  },
};
