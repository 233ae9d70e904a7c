/**
 * node:crypto for the browser build (D-173): the synchronous calls the server makes, on Web Crypto's
 * random numbers and the audited pure-JS SHA-256 and AES-256-GCM of @noble (Web Crypto's own digest and
 * AES-GCM are asynchronous, and the server's hashing and sealing are synchronous).
 */
import { gcm } from "@noble/ciphers/aes.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { Buffer } from "buffer/";

const tagBytes = 16;

export function createHash(algorithm: string) {
  if (algorithm !== "sha256") throw new Error(`the browser build hashes only sha256, not ${algorithm}`);
  const chunks: Uint8Array[] = [];
  const hash = {
    update(data: string | Uint8Array) {
      chunks.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
      return hash;
    },
    digest(encoding: "hex") {
      return Buffer.from(sha256(Buffer.concat(chunks))).toString(encoding);
    },
  };
  return hash;
}

export function randomBytes(size: number): Buffer {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(size)));
}

export function randomFillSync<T extends Uint8Array>(buffer: T): T {
  globalThis.crypto.getRandomValues(buffer);
  return buffer;
}

export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}

/** AES-256-GCM in Node's streaming shape: the text is sealed at final(), the tag kept for getAuthTag(). */
export function createCipheriv(algorithm: string, key: Uint8Array, iv: Uint8Array) {
  if (algorithm !== "aes-256-gcm") throw new Error(`the browser build seals only with aes-256-gcm, not ${algorithm}`);
  const chunks: Buffer[] = [];
  let tag = Buffer.alloc(0);
  let aad: Uint8Array | undefined;
  return {
    setAAD(value: Uint8Array) {
      aad = value;
    },
    update(text: string, encoding: "utf8") {
      chunks.push(Buffer.from(text, encoding));
      return Buffer.alloc(0);
    },
    final() {
      const sealed = gcm(key, iv, aad).encrypt(Buffer.concat(chunks));
      tag = Buffer.from(sealed.subarray(sealed.length - tagBytes));
      return Buffer.from(sealed.subarray(0, sealed.length - tagBytes));
    },
    getAuthTag() {
      return tag;
    },
  };
}

export function createDecipheriv(algorithm: string, key: Uint8Array, iv: Uint8Array) {
  if (algorithm !== "aes-256-gcm") throw new Error(`the browser build opens only aes-256-gcm, not ${algorithm}`);
  const chunks: Uint8Array[] = [];
  let tag: Uint8Array = new Uint8Array(0);
  let aad: Uint8Array | undefined;
  return {
    setAAD(value: Uint8Array) {
      aad = value;
    },
    setAuthTag(value: Uint8Array) {
      tag = value;
    },
    update(data: Uint8Array) {
      chunks.push(data);
      return Buffer.alloc(0);
    },
    final() {
      return Buffer.from(gcm(key, iv, aad).decrypt(Buffer.concat([...chunks, tag])));
    },
  };
}

export default { createHash, randomBytes, randomFillSync, randomUUID, createCipheriv, createDecipheriv };
