/** `deployment-mock/msw` for browsers (D-173): the same handlers, with Buffer and process.env set up first for the server's modules. */
import "./browser-shims/globals.js";

export * from "./msw.js";
