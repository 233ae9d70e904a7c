/** Image version (D-39 to D-45): the tag of image_uri for container sources, else null; the URI must be a container image reference [D-42]. */

// registry[:port]/path[:tag][@digest], after the reference grammar of the distribution project.
const component = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const host =
  "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?";
const referencePattern = new RegExp(
  `^(?:${host}/)?${component}(?:/${component})*(?::([\\w][\\w.-]{0,127}))?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`,
);

/** Whether the value is a container image reference. */
export function isImageReference(value: string): boolean {
  return referencePattern.test(value);
}

/** The explicit tag of an image reference, or null (no tag, or not a reference). */
export function imageVersion(imageUri: string | null | undefined): string | null {
  if (!imageUri) return null;
  const match = referencePattern.exec(imageUri);
  return match?.[1] ?? null;
}
