// The design-time fact flow of the open topology (from the backend's `fact_flow`, refreshed with
// live lint): which pinned facts each edge's sender may have, and whether the edge can pass them.
import { create } from "zustand";
import type { EdgeFlow } from "../bindings/EdgeFlow";

type State = {
  flows: EdgeFlow[];
  set(flows: EdgeFlow[]): void;
};

export const useFactFlow = create<State>((set) => ({
  flows: [],
  set: (flows) => set({ flows }),
}));
