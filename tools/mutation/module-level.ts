/** Whether a place of a source file runs while its module loads, outside every function body (D-360). */
import ts from "typescript";

/** Nodes whose inside runs when called or constructed, not while the module loads. */
function runsLater(node: ts.Node): boolean {
  if (ts.isFunctionLike(node)) return true;
  // an instance field's initializer runs in the constructor; a static one while the class is defined
  return (
    ts.isPropertyDeclaration(node) &&
    !(ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Static) &&
    node.initializer !== undefined
  );
}

/**
 * For `text`, whether the code at a line and column (1-based, as Stryker reports them) runs while its module loads:
 * a module-level constant, table or pattern. Stryker may count such a mutant as covered by a test too (the module is
 * loaded again in a later test file) and switch it on at run time, after the code ran unmutated, so its survival
 * shows nothing until it is tested with a fresh module graph.
 */
export function loadsWithModule(text: string): (line: number, column: number) => boolean {
  const source = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest, true);
  const lineStarts = source.getLineStarts();
  return (line, column) => {
    if (line < 1 || line > lineStarts.length) return false;
    const position = lineStarts[line - 1]! + column - 1;
    let node: ts.Node = source;
    for (;;) {
      const inner: ts.Node | undefined = ts.forEachChild(node, (child) =>
        child.getStart(source) <= position && position < child.getEnd() ? child : undefined,
      );
      if (!inner) return true;
      if (runsLater(inner)) return false;
      node = inner;
    }
  };
}
