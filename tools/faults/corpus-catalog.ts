/**
 * Faults on the values the corpora feed (D-495, D-496): a legal value refused, coerced, split or matched loosely.
 * PROP-007 and PROP-008 catch the field faults, PROP-009 and PROP-010 the name_contains ones.
 */
import { eachDeployment, eachProvider, isDeployments, isProviders, type Json, ok, problemOf } from "./catalog.js";
import type { Fault, ProxyRequest } from "./proxy.js";

const isCreate = (r: ProxyRequest, of: (r: ProxyRequest) => boolean) => of(r) && r.method === "POST";

/** A 422 naming one field, as a server with a rule the contract does not have answers. */
const refusal = (pointer: string, detail: string) =>
  problemOf(422, "validation", "Validation failed", `${pointer} is not accepted`, { errors: [{ pointer, detail }] });

/** The bounds a server counting UTF-8 bytes applies (D-31 counts code points). */
const providerBounds: Record<string, number> = { name: 255, client_id: 255, provider_id: 255 };
const revisionBounds: Record<string, number> = { graph_config_path: 1024, source_tarball_path: 2048 };

/** The first field of `object` whose UTF-8 bytes pass its bound. */
const pastInBytes = (object: Json | undefined, bounds: Record<string, number>) =>
  Object.entries(bounds).find(
    ([field, bound]) => typeof object?.[field] === "string" && Buffer.byteLength(object[field] as string) > bound,
  )?.[0];

/** Text a lenient reader takes for a number. */
const numberLike = /^[-+]?\d+(\.\d+)?(e[-+]?\d+)?$/i;

export const corpusFaults: Fault[] = [
  {
    id: "provider-id-punctuation-refused",
    level: "SHOULD",
    description: "An OAuth provider whose provider_id holds `.`, `:` or a space is refused with 422",
    request: (req) => {
      const id = (req.json as Json | undefined)?.provider_id;
      return isCreate(req, isProviders) && typeof id === "string" && /[.: ]/.test(id)
        ? refusal("/provider_id", "only letters, digits, - and _ are accepted")
        : undefined;
    },
  },
  {
    id: "client-id-numeric-coerced",
    level: "MUST",
    description: "An OAuth provider's client_id that reads as a number is answered and listed as a JSON number",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => {
            if (typeof p.client_id === "string" && numberLike.test(p.client_id)) p.client_id = Number(p.client_id);
          })
        : undefined,
  },
  {
    id: "args-inner-spaces-split",
    level: "MUST",
    hosting: "self_hosted",
    description: "A container's args item with an inner space is stored as one item per word",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const spec = (d.source_config as Json | null | undefined)?.resource_spec as Json | null | undefined;
            for (const sidecar of (spec?.sidecars as Json[] | undefined) ?? [])
              if (Array.isArray(sidecar.args))
                sidecar.args = sidecar.args.flatMap((a: unknown) =>
                  typeof a === "string" && /\S \S/.test(a) ? a.split(" ") : [a],
                );
          })
        : undefined,
  },
  {
    id: "multibyte-max-length-refused",
    level: "SHOULD",
    description:
      "A provider's name, client_id or provider_id, or a deployment's graph_config_path or source_tarball_path, within its bound in characters but past it in UTF-8 bytes is refused with 422",
    request: (req) => {
      const body = req.json as Json | undefined;
      if (isCreate(req, isProviders)) {
        const field = pastInBytes(body, providerBounds);
        return field === undefined ? undefined : refusal(`/${field}`, `at most ${providerBounds[field]} bytes`);
      }
      if (!isCreate(req, isDeployments)) return undefined;
      const field = pastInBytes(body?.source_revision_config as Json | undefined, revisionBounds);
      return field === undefined
        ? undefined
        : refusal(`/source_revision_config/${field}`, `at most ${revisionBounds[field]} bytes`);
    },
  },
  {
    id: "name-contains-short-ignored",
    level: "MUST",
    description:
      "A deployment list's name_contains of fewer than 3 characters is ignored (a trigram index cannot use it)",
    request: (req) => {
      const value = req.url.searchParams.get("name_contains");
      if (isDeployments(req) && req.method === "GET" && value !== null && value !== "" && [...value].length < 3)
        req.url.searchParams.delete("name_contains");
      return undefined;
    },
  },
  {
    id: "name-contains-accent-folded",
    level: "SHOULD",
    description: "A deployment list's name_contains is matched with its accents folded (á finds a)",
    request: (req) => {
      const value = req.url.searchParams.get("name_contains");
      if (isDeployments(req) && req.method === "GET" && value !== null)
        req.url.searchParams.set("name_contains", value.normalize("NFD").replace(/\p{M}/gu, ""));
      return undefined;
    },
  },
];
