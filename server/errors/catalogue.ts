/** The one error catalogue (D-16): each problem kind with its status, ProblemType URN and title [D-16 to D-26, D-66]. */
import type { ProblemType } from "../../contract/schemas.js";

/** A kind of problem the server reports. */
export type ProblemKind =
  | "validation"
  | "malformedJson"
  | "sourceRule"
  | "unauthenticated"
  | "forbidden"
  | "notFound"
  | "methodNotAllowed"
  | "conflict"
  | "payloadTooLarge"
  | "unsupportedMediaType"
  | "malformedRequest"
  | "headersTooLarge"
  | "uriTooLong"
  | "expectationFailed"
  | "requestTimeout"
  | "internal"
  | "serviceUnavailable"
  | "tooManyRequests";

/** How one kind of problem is answered. */
interface ProblemEntry {
  status: number;
  type: ProblemType;
  title: string;
}

/** Status, type and title of every kind; the URNs are the ProblemType values of the contract. */
export const problemCatalogue: Record<ProblemKind, ProblemEntry> = {
  validation: { status: 422, type: "urn:deployment-service:problem:validation", title: "Request validation failed" },
  malformedJson: { status: 400, type: "urn:deployment-service:problem:malformed-json", title: "Malformed JSON" },
  sourceRule: { status: 400, type: "urn:deployment-service:problem:source-rule", title: "Source configuration error" },
  unauthenticated: { status: 401, type: "urn:deployment-service:problem:unauthenticated", title: "Unauthenticated" },
  forbidden: { status: 403, type: "urn:deployment-service:problem:forbidden", title: "Forbidden" },
  notFound: { status: 404, type: "urn:deployment-service:problem:not-found", title: "Not found" },
  methodNotAllowed: {
    status: 405,
    type: "urn:deployment-service:problem:method-not-allowed",
    title: "Method not allowed",
  },
  conflict: { status: 409, type: "urn:deployment-service:problem:conflict", title: "Conflict" },
  payloadTooLarge: {
    status: 413,
    type: "urn:deployment-service:problem:payload-too-large",
    title: "Payload too large",
  },
  unsupportedMediaType: {
    status: 415,
    type: "urn:deployment-service:problem:unsupported-media-type",
    title: "Unsupported media type",
  },
  malformedRequest: {
    status: 400,
    type: "urn:deployment-service:problem:malformed-request",
    title: "Malformed request",
  },
  headersTooLarge: {
    status: 431,
    type: "urn:deployment-service:problem:headers-too-large",
    title: "Request headers too large",
  },
  uriTooLong: { status: 414, type: "urn:deployment-service:problem:uri-too-long", title: "URI too long" },
  expectationFailed: {
    status: 417,
    type: "urn:deployment-service:problem:expectation-failed",
    title: "Expectation failed",
  },
  requestTimeout: { status: 408, type: "urn:deployment-service:problem:request-timeout", title: "Request timeout" },
  internal: { status: 500, type: "urn:deployment-service:problem:internal", title: "Internal server error" },
  serviceUnavailable: {
    status: 503,
    type: "urn:deployment-service:problem:service-unavailable",
    title: "Service unavailable",
  },
  tooManyRequests: {
    status: 429,
    type: "urn:deployment-service:problem:too-many-requests",
    title: "Too many requests",
  },
};
