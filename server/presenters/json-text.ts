/** A response body already serialized to JSON, typed by the value it encodes, sent as it is (D-83). */
export class JsonText<Encodes> {
  /** Only for the type checker: the value the text encodes. */
  declare readonly encodes?: Encodes;
  constructor(readonly text: string) {}
}
