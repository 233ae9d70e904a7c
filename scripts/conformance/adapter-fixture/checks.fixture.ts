/** A vitest file as an implementer writes it: the suite's checks through deployment-conformance/vitest, options from ADAPTER_OPTIONS. */
import { conformanceTests } from "../../../conformance/vitest-adapter.js";

conformanceTests(() => JSON.parse(process.env.ADAPTER_OPTIONS ?? "{}"));
