/**
 * `deployment-mock --stateful --state-file FILE` (D-322): the sandbox's sessions kept in a file across restarts,
 * read at start and written after each change (writes within 100 ms coalesced into one) and at shutdown, each
 * time whole to a temporary file renamed over the old one, so a crash leaves the previous file intact.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import type { SavedSession } from "./engine/memory-sandbox.js";
import { MockStateError, parseMockState } from "./engine/mock-state.js";

/** The format tag of a state file: the sessions, each one's state in the format of a snapshot. */
const stateFileFormat = "deployment-mock-sessions/1";

/** The sessions saved in `path`, none when the file does not exist yet. */
export async function readStateFile(path: string): Promise<SavedSession[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  try {
    const file = JSON.parse(text) as { format?: unknown; sessions?: unknown };
    if (file.format !== stateFileFormat || !Array.isArray(file.sessions))
      throw new MockStateError(`not a state file: it needs "format": "${stateFileFormat}" and "sessions"`);
    return file.sessions.map((saved: SavedSession) => ({
      session: String(saved.session),
      owner_sha256: String(saved.owner_sha256),
      state: parseMockState(saved.state),
    }));
  } catch (error) {
    // The file is left as it is: the mock does not start over a state it could not read.
    throw new MockStateError(`--state-file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Writes the sessions to `path` after each `changed()` (coalesced) and on `flush()`. */
export function stateFileWriter(path: string, sessions: () => Promise<SavedSession[]>) {
  let pending: ReturnType<typeof setTimeout> | undefined;
  let writing = Promise.resolve();
  const write = () => {
    pending = undefined;
    writing = writing
      .then(async () => {
        const text = `${JSON.stringify({ format: stateFileFormat, sessions: await sessions() })}\n`;
        await writeFile(`${path}.tmp`, text);
        await rename(`${path}.tmp`, path);
      })
      .catch((error: unknown) => {
        // The mock keeps serving; the next change or the shutdown tries again.
        console.error(`deployment-mock: could not write ${path}: ${error instanceof Error ? error.message : error}`);
      });
    return writing;
  };
  return {
    changed(): void {
      pending ??= setTimeout(() => void write(), 100);
    },
    async flush(): Promise<void> {
      if (pending) clearTimeout(pending);
      await write();
    },
  };
}
