import { Prisma } from "../generated/prisma-sqlite/client";
import type { Database } from "./database";

/**
 * A value of a Prisma enum column in raw SQL: a literal cast to the enum type on PostgreSQL (a
 * text parameter would not compare or insert there), a plain literal on SQLite. Only for the
 * code's own constants, never for client input.
 */
export function sqlEnum(provider: Database["provider"], enumName: string, value: string): Prisma.Sql {
  if (!/^[A-Za-z_]+$/.test(value) || !/^[A-Za-z]+$/.test(enumName)) throw new Error(`not an enum literal: ${enumName}.${value}`);
  return Prisma.raw(provider === "postgresql" ? `'${value}'::"${enumName}"` : `'${value}'`);
}

/** Values of a Prisma enum column, for `IN (…)`: each as `sqlEnum` writes it. */
export function sqlEnumList(provider: Database["provider"], enumName: string, values: readonly string[]): Prisma.Sql {
  return Prisma.join(values.map((value) => sqlEnum(provider, enumName, value)));
}
