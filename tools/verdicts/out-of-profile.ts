/**
 * Records legal under the interface spec but beyond the profile (D-221): created through the API with values within the
 * profile, then changed where they are stored (`change` rewrites a deployment's stored answer), as a target without the
 * profile's bounds would have stored them. Returns what was seeded, one line each.
 */

type Json = Record<string, unknown>;
type Change = (id: string, change: (record: Json) => void) => void;

/** Creates one deployment per hosting kind and turns it into a record beyond the profile; newest, so on page one. */
export async function outOfProfileRecords(
  baseUrl: string,
  hosting: "cloud" | "self_hosted",
  apiKey: string,
  change: Change,
): Promise<string[]> {
  const selfHosted = hosting === "self_hosted";
  const body = {
    name: `legal-beyond-profile-${Date.now().toString(36)}`,
    source: selfHosted ? "external_container" : "internal_template",
    source_config: selfHosted ? { resource_spec: { max_scale: 100, labels: { team: "x" } } } : {},
    source_revision_config: selfHosted ? { image_uri: "registry.example.com/legal/app:1.0.0" } : {},
    secrets: [{ name: "LEGAL", value: "v" }],
  };
  const answer = await fetch(`${baseUrl}/v2/deployments`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Api-Key": apiKey },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`seeding: the create answered ${answer.status}: ${await answer.text()}`);
  const { id } = (await answer.json()) as { id: string };
  change(id, (record) => {
    // An empty secret name (D-31: 1 to 255) and a secret reference without its key (D-69) on either kind.
    record.secrets = [{ name: "", value: "********" }];
    if (selfHosted) {
      const spec = (record.source_config as Json).resource_spec as Json;
      spec.max_scale = 101; // D-133: at most 100
      spec.labels = { team: 7 }; // D-01: string values
      spec.sidecars = [{ name: "no-image" }]; // D-65: image required
      record.secret_references = [{ name: "DB" }]; // D-69: secret_name and secret_key required
    }
  });
  return [
    `deployment ${id} (${body.source}): secret name "" (D-31)${selfHosted ? ", max_scale 101 (D-133), labels {team: 7} (D-01), a sidecar without image (D-65), a secret reference without secret_name and secret_key (D-69)" : ""}`,
  ];
}
