/** A response body sent in parts as they are produced (D-350), typed by the value it encodes; `close` frees what it holds once sent or abandoned. */
export class JsonStream<Encodes> {
  /** Only for the type checker: the value the parts encode together. */
  declare readonly encodes?: Encodes;
  constructor(
    readonly parts: AsyncIterable<string>,
    readonly close: () => void,
  ) {}

  /** The whole text at once (the response check reads it whole), closed once read or failed. */
  async text(): Promise<string> {
    try {
      const parts: string[] = [];
      for await (const part of this.parts) parts.push(part);
      return parts.join("");
    } finally {
      this.close();
    }
  }
}
