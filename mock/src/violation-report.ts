/** The contract proxy's record of exchanges that break the contract, and its summary (client-teams issue: mock:proxy). */
import { requestViolations, responseViolations, type Violation } from "./violations.js";

/** One exchange with at least one violation. */
export interface ViolatingExchange {
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  status: number;
  /** Violations of the request: the client broke the contract. */
  request: Violation[];
  /** Violations of the response: the implementation broke the contract. */
  response: Violation[];
}

/** Counts over every exchange the proxy saw. */
interface ProxySummary {
  exchanges: number;
  requestsBreakingContract: number;
  responsesBreakingContract: number;
  /** `response body.resources.0.id format` and the like, with how often each was seen. */
  rules: Array<{ side: "request" | "response"; rule: string; count: number; example: string }>;
}

/**
 * `location code` with array indexes folded, so one broken field of many list items counts as one
 * rule; without the "response" prefix, which the side already says.
 */
function ruleOf(violation: Violation): string {
  const segments = violation.location[0] === "response" ? violation.location.slice(1) : violation.location;
  const location = segments.map((segment) => (/^\d+$/.test(segment) ? "*" : segment)).join(".");
  return `${location || "(status/media type)"} ${violation.code ?? "-"}`;
}

/** Collects exchanges and summarises them. */
export class ViolationReport {
  private exchanges = 0;
  readonly violating: ViolatingExchange[] = [];

  /** Records one exchange; returns the violating exchange when it broke the contract. */
  record(method: string, target: string, status: number, violations: Violation[]): ViolatingExchange | undefined {
    this.exchanges += 1;
    if (violations.length === 0) return undefined;
    const exchange = {
      method,
      target,
      status,
      request: requestViolations(violations),
      response: responseViolations(violations),
    };
    this.violating.push(exchange);
    return exchange;
  }

  summary(): ProxySummary {
    const rules = new Map<string, { side: "request" | "response"; rule: string; count: number; example: string }>();
    for (const exchange of this.violating) {
      for (const [side, violations] of [
        ["request", exchange.request],
        ["response", exchange.response],
      ] as const) {
        for (const violation of violations) {
          const rule = ruleOf(violation);
          const key = `${side} ${rule}`;
          const entry = rules.get(key) ?? {
            side,
            rule,
            count: 0,
            example: `${exchange.method} ${exchange.target} -> ${exchange.status}: ${violation.message}`,
          };
          entry.count += 1;
          rules.set(key, entry);
        }
      }
    }
    return {
      exchanges: this.exchanges,
      requestsBreakingContract: this.violating.filter((exchange) => exchange.request.length > 0).length,
      responsesBreakingContract: this.violating.filter((exchange) => exchange.response.length > 0).length,
      rules: [...rules.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)),
    };
  }
}

/** One line per violating exchange, for the console. */
export function formatExchange(exchange: ViolatingExchange): string {
  const lines = [`✖ ${exchange.method} ${exchange.target} -> ${exchange.status}`];
  for (const violation of exchange.request)
    lines.push(`    request  ${violation.location.join(".")}: ${violation.message}`);
  for (const violation of exchange.response)
    lines.push(`    response ${violation.location.slice(1).join(".") || "(status/media type)"}: ${violation.message}`);
  return lines.join("\n");
}

/** The summary as console text. */
export function formatSummary(summary: ProxySummary): string {
  const lines = [
    `contract proxy: ${summary.exchanges} exchange(s); ${summary.responsesBreakingContract} response(s) and ${summary.requestsBreakingContract} request(s) broke the contract`,
  ];
  for (const rule of summary.rules)
    lines.push(`  ${String(rule.count).padStart(4)} × ${rule.side} ${rule.rule}   e.g. ${rule.example}`);
  return lines.join("\n");
}
