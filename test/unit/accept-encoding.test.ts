import { describe, expect, it } from "vitest";
import { preferredEncoding } from "../../src/http/accept-encoding";

describe("preferredEncoding (Accept-Encoding → the encoding to send)", () => {
  it("prefers brotli when both are accepted equally, as browsers send them", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("br;q=1.0, gzip;q=1.0")).toBe("br");
  });

  it("follows the weights", () => {
    expect(preferredEncoding("br;q=0.5, gzip")).toBe("gzip");
    expect(preferredEncoding("gzip;q=1, br;q=0")).toBe("gzip");
    expect(preferredEncoding("x-gzip")).toBe("gzip");
  });

  it("sends the body as is without a header, or when only other codings or q=0 are accepted", () => {
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding("")).toBeNull();
    expect(preferredEncoding("identity")).toBeNull();
    expect(preferredEncoding("deflate, zstd")).toBeNull();
    expect(preferredEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(preferredEncoding("gzip;q=abc")).toBeNull();
  });

  it("reads * as any coding the header does not name", () => {
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("br;q=0, *")).toBe("gzip");
    expect(preferredEncoding("*;q=0")).toBeNull();
  });
});
