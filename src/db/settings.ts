import type { Database } from "./database";
import type { Prisma } from "./models";
import { isUniqueViolation } from "./errors";

/**
 * A process-wide setting shared by every server process: the first process to need it stores
 * `initial()`; a concurrent first writer loses the insert race and reads the winner's value.
 * `alsoInTransaction` runs in the winner's insert transaction (e.g. to create what it names).
 */
export async function sharedSetting(
  db: Database,
  key: string,
  initial: () => string,
  alsoInTransaction?: (tx: Prisma.TransactionClient) => Promise<unknown>,
): Promise<{ value: string; created: boolean }> {
  const existing = await db.prisma.setting.findUnique({ where: { key } });
  if (existing) return { value: existing.value, created: false };
  const value = initial();
  try {
    await db.prisma.$transaction(async (tx) => {
      await tx.setting.create({ data: { key, value } });
      await alsoInTransaction?.(tx);
    });
    return { value, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await db.prisma.setting.findUniqueOrThrow({ where: { key } });
    return { value: winner.value, created: false };
  }
}
