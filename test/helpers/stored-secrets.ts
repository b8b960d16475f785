import type { TestServer } from "./test-server";

/** Every table, column and value holding `secret` anywhere in the database. */
export async function whereStored(server: { db: TestServer["db"]; provider: TestServer["provider"] }, secret: string): Promise<string[]> {
  const query =
    server.provider === "postgresql"
      ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
      : `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`;
  const found: string[] = [];
  for (const { name } of await server.db.prisma.$queryRawUnsafe<Array<{ name: string }>>(query)) {
    for (const row of await server.db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT * FROM "${name}"`)) {
      for (const [column, value] of Object.entries(row)) {
        const text = typeof value === "string" ? value : JSON.stringify(value, (_key, inner) => (typeof inner === "bigint" ? String(inner) : inner));
        if (text?.includes(secret)) found.push(`${name}.${column}`);
      }
    }
  }
  return found;
}
