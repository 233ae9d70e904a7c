/** One registry per run configuration, so targets judged in one process never mix what their answers showed. */
import type { RunConfig } from "../cli/run-config.js";

/** The accessor of a registry made once per configuration by `make`. */
export function perRun<T>(make: (config: RunConfig) => T): (config: RunConfig) => T {
  const runs = new WeakMap<RunConfig, T>();
  return (config) => {
    let registry = runs.get(config);
    if (registry === undefined) {
      registry = make(config);
      runs.set(config, registry);
    }
    return registry;
  };
}
