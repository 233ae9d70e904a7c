/** An RFC 9110 token (§5.6.2): a method, a header name, an item of a preflight's allowed methods or headers. */
export const httpToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
