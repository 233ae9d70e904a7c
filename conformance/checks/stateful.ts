/** Stateful generated checks: random create and list sequences judged by the model of the contract (conformance/model/). */

import { runSequences } from "../model/sequence.js";
import type { Check } from "../runner/check.js";

const tags = ["stateful", "listDeployments", "createDeployment", "pagination", "filters"];

export const statefulChecks: Check[] = [
  {
    id: "STATE-001",
    level: "MUST",
    tags,
    statement:
      "Generated create/list sequences: pages hold at most limit, walks by returned offset return exactly the deployments asked by id, and listings keep the name, source, id, tenant_id and created_at of the create answers (D-234)",
    specRef:
      'interface-spec: 6. List deployments (limit 1 to 100; "Pass this value as offset in the next request"; deployment_ids)',
    needs: ["write", "state"],
    async run(ctx) {
      await runSequences(ctx, "must", ctx.config.stateRuns);
    },
  },
  {
    id: "STATE-002",
    level: "SHOULD",
    tags,
    statement:
      "Generated create/list sequences: every page and every walk, under any filters, limit and offset, is what the model computes",
    specRef: "D-08, D-09, D-39 to D-43 (order, returned offset, end of results, filter semantics)",
    needs: ["write", "state"],
    async run(ctx) {
      await runSequences(ctx, "model", ctx.config.stateRuns);
    },
  },
];
