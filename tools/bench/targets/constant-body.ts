/** The constant JSON body both baseline servers answer: an empty deployment page (baselines). */
export const constantBody = { resources: [], offset: 0 } as const;

/** Writes the listening line in the reference server's format, so one harness starts every target. */
export function announce(name: string, port: number): void {
  process.stdout.write(
    `${JSON.stringify({ level: 30, msg: "listening", target: name, url: `http://127.0.0.1:${port}` })}\n`,
  );
}
