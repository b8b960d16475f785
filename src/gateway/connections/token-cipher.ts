import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Supplier access tokens at rest: AES-256-GCM under SUPPLIER_SECRETS_KEY, a fresh 96-bit IV per
 * token, and the connection's tenant and id as associated data, so a ciphertext copied onto
 * another row does not decrypt. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class TokenCipher {
  /** The key of `fingerprint`: derived from the encryption key for that use alone. */
  readonly #fingerprintKey: Buffer;

  private constructor(private readonly key: Buffer) {
    this.#fingerprintKey = Buffer.from(hkdfSync("sha256", key, "", "aerogate token fingerprint", 32));
  }

  /** The cipher for a 32-byte key given in base64; null when the key is unset. Any other key length throws. */
  static fromSetting(base64Key: string | undefined): TokenCipher | null {
    if (base64Key === undefined) return null;
    const key = Buffer.from(base64Key, "base64");
    if (key.length !== 32) throw new Error("SUPPLIER_SECRETS_KEY must be 32 bytes in base64");
    return new TokenCipher(key);
  }

  encrypt(token: string, associated: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv).setAAD(Buffer.from(associated));
    const ciphertext = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
  }

  /**
   * An HMAC-SHA256 of the token (hex): tells two tokens apart (an Idempotency-Key reused with
   * another token) without keeping anything a token could be read or tried from.
   */
  fingerprint(token: string): string {
    return createHmac("sha256", this.#fingerprintKey).update(token).digest("hex");
  }

  /** The token; throws when the text was not made by this key for this `associated` data. */
  decrypt(stored: string, associated: string): string {
    const [version, iv, tag, ciphertext] = stored.split(".");
    if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("not an encrypted supplier token");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url")).setAAD(Buffer.from(associated));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}
