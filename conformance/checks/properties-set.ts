/** The records the record and filter properties judge: a few deployments of every source the hosting kind offers without an integration, and one provider. */
import { expect2xx, jsonObject } from "../check-kit/assert.js";
import { createProvider, type Json, paths } from "../check-kit/helpers.js";
import type { QuerySet } from "../model/adversarial-queries.js";
import { deploymentBody, type Source, sourcesFor } from "../model/data.js";
import { DeploymentModel } from "../model/deployment-model.js";
import type { CheckContext } from "../runner/check.js";
import { noVerdictWhenBodyRefused } from "../runner/no-verdict.js";

/** Image tags of the container deployments: letter case and dots, so an exact match differs from a loose one (D-42). */
const tags = ["Latest-RC", "1.0", "v2.1"];
const words = ["Alpha", "beta", "GaMma", "delta-X", "Echo"];

export interface PropertySet extends QuerySet {
  model: DeploymentModel;
  providers: Json[];
}

/** The body of the i-th deployment of the set: its source and, for container sources, its image tag and listener. */
function bodyOf(name: string, source: Source, i: number): Json {
  const body = deploymentBody(name, source);
  const revision = body.source_revision_config as Json;
  if (typeof revision.image_uri === "string")
    revision.image_uri = `registry.example.com/conformance/app${i}:${tags[i % tags.length]}`;
  if (source === "external_container" && i % 2 === 0)
    (body.source_config as Json).listener_id = "6b1f8c2a-9d3e-4f5a-8b7c-0d1e2f3a4b5c";
  return body;
}

/** Creates the set once per area (a fixture): names `<prefix>Pq<i><word>`, each source of the hosting kind at least once. */
export function propertySet(ctx: CheckContext): Promise<PropertySet> {
  return ctx.fixture("property-set", async () => {
    const sources = sourcesFor[ctx.config.hosting].filter((s) => s !== "codehost");
    const model = new DeploymentModel();
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const name = `${ctx.prefix}Pq${i}${words[i]}`;
      const body = bodyOf(name, sources[i % sources.length]!, i);
      const exchange = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: body,
        operation: "createDeployment",
      });
      noVerdictWhenBodyRefused(ctx, exchange, body.source);
      expect2xx(exchange, `create the ${String(body.source)} deployment ${name} of the property set`);
      const answer = jsonObject(exchange, "create deployment");
      ctx.created({ kind: "deployment", id: String(answer.id), name, key: "main" });
      model.add(body, answer);
      names.push(name);
    }
    // one provider: every provider a run creates counts against the organization's room (a run stays small, D-245)
    const providers = [(await createProvider(ctx)).record];
    const used = model.deployments.map((d) => d.imageVersion).filter((v): v is string => v !== null);
    return {
      prefix: ctx.prefix,
      names,
      ids: model.deployments.map((d) => d.id),
      tags: used.length > 0 ? used : tags,
      model,
      providers,
    };
  });
}
