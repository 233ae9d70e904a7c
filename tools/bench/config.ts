/** Sizes of a benchmark run: the full run, and `--quick` for a CI smoke run. */
export interface BenchConfig {
  mode: "full" | "quick";
  /** Deployments seeded in acme-production (the large tenant; the deep offset is this minus 100). */
  largeTenantDeployments: number;
  /** Deployments seeded in globex-production (the small tenant of the page walk). */
  smallTenantDeployments: number;
  /** Deployments seeded for the PostgreSQL row. */
  postgresDeployments: number;
  connections: number;
  rowSeconds: number;
  warmupSeconds: number;
  startups: number;
  /** Rounds of `--before`'s side-by-side run, each measuring both builds once per row. */
  sideBySideRounds: number;
}

export const fullConfig: BenchConfig = {
  mode: "full",
  largeTenantDeployments: 100_000,
  smallTenantDeployments: 10_000,
  postgresDeployments: 100_000,
  connections: 10,
  rowSeconds: 5,
  warmupSeconds: 1,
  startups: 5,
  sideBySideRounds: 5,
};

export const quickConfig: BenchConfig = {
  mode: "quick",
  largeTenantDeployments: 5_000,
  smallTenantDeployments: 500,
  postgresDeployments: 1_000,
  connections: 10,
  rowSeconds: 1,
  warmupSeconds: 0.5,
  startups: 3,
  sideBySideRounds: 2,
};
