/** node:net for the browser build (D-173): isIP as Node answers it (4, 6 or 0). */
export function isIP(text: string): 0 | 4 | 6 {
  if (/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(text)) return 4;
  if (text.includes(":") && /^[0-9a-fA-F:.]+$/.test(text)) {
    try {
      new URL(`http://[${text}]/`);
      return 6;
    } catch {
      return 0;
    }
  }
  return 0;
}
