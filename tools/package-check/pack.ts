/**
 * `npm run pack`: builds and packs the three packages (deployment-client, deployment-mock,
 * deployment-conformance) into dist-packages/ at the root of the clone (D-260), replacing older tarballs,
 * and prints each tarball's size and file count.
 */
import { packAll } from "./packages.js";

for (const p of packAll())
  process.stdout.write(
    `${p.path}: ${(p.size / 1024).toFixed(1)} kB, ${p.entryCount} files, ${(p.unpackedSize / 1024).toFixed(1)} kB unpacked\n`,
  );
