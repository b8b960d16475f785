import { describe, expect, it } from "vitest";
import { describeDatabase } from "../../src/db/database";
import { parsePostgresUrl, PostgresUrlError } from "../../src/db/postgres-url";
import { withoutCredentials } from "../../src/logger";

const SECRET = "s3cr%40t-pw";

describe("PostgreSQL URLs with several hosts", () => {
  it("splits libpq's host list and gives each host a URL of its own, credentials and parameters kept", () => {
    const url = parsePostgresUrl(`postgresql://aerogate:${SECRET}@db1.internal:5433,db2.internal,[::1]:6432/aerogate?sslmode=disable&target_session_attrs=read-write`);
    expect(url.hosts).toEqual([
      { host: "db1.internal", port: 5433 },
      { host: "db2.internal", port: 5432 },
      { host: "::1", port: 6432 },
    ]);
    expect(url.database).toBe("aerogate");
    expect(url.urlFor(url.hosts[1]!)).toBe(`postgresql://aerogate:${SECRET}@db2.internal:5432/aerogate?sslmode=disable`);
    expect(url.urlFor(url.hosts[2]!)).toBe(`postgresql://aerogate:${SECRET}@[::1]:6432/aerogate?sslmode=disable`);
  });

  it("reads one host as before, and a URL without credentials or database", () => {
    const url = parsePostgresUrl("postgres://localhost");
    expect(url.hosts).toEqual([{ host: "localhost", port: 5432 }]);
    expect(url.database).toBe("");
    expect(url.urlFor(url.hosts[0]!)).toBe("postgres://localhost:5432");
  });

  it("refuses a session kind the service cannot write to, and a host list it cannot read, without quoting the URL", () => {
    for (const bad of [`postgresql://u:${SECRET}@a,b/db?target_session_attrs=standby`, `postgresql://u:${SECRET}@a,,b/db`, `postgresql://u:${SECRET}@a:99999/db`]) {
      let error: unknown;
      try {
        parsePostgresUrl(bad);
      } catch (caught) {
        error = caught;
      }
      expect(error, bad).toBeInstanceOf(PostgresUrlError);
      expect((error as Error).message).not.toContain(SECRET);
    }
  });

  it("names the database by its hosts and name only, never its credentials, even when it cannot be read", () => {
    expect(describeDatabase(`postgresql://aerogate:${SECRET}@db1:5432,db2:5433/aerogate?target_session_attrs=read-write`)).toBe("PostgreSQL at db1:5432, db2:5433, database aerogate");
    expect(describeDatabase(`postgresql://aerogate:${SECRET}@db1:5432/`)).toBe("PostgreSQL at db1:5432, database (default)");
    expect(describeDatabase(`postgresql://aerogate:${SECRET}@db1:x/aerogate`)).not.toContain(SECRET);
  });

  it("takes the user and password out of any URL a message quotes", () => {
    const line = `{"msg":"failed","reason":"Invalid URL postgresql://aerogate:${SECRET}@db1:5432,db2:5432/aerogate and https://user:pw@example.com/x"}`;
    const cleaned = withoutCredentials(line);
    expect(cleaned).not.toContain(SECRET);
    expect(cleaned).not.toContain("user:pw");
    expect(cleaned).toContain("postgresql://[redacted]@db1:5432,db2:5432/aerogate");
    expect(withoutCredentials("no URL here")).toBe("no URL here");
  });
});
