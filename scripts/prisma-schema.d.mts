// Types for scripts/prisma-schema.mjs, so TypeScript tools (scripts/migration-create.ts) can import it.

/** Absolute path of the repository root. */
export declare const repoRoot: string;

/** Provider folders under prisma/ (and under prisma/migrations/), with Prisma's provider name. */
export declare const providers: { readonly sqlite: "sqlite"; readonly postgres: "postgresql" };

/** A provider folder name: "sqlite" or "postgres". */
export type ProviderFolder = keyof typeof providers;

/**
 * Builds the full schema text for one provider folder: its header plus the shared models
 * (or `models`, e.g. a snapshot), with the generator output rewritten relative to `schemaPath`.
 */
export declare function joinSchema(provider: ProviderFolder, schemaPath: string, models?: string): string;

/** Writes the joined schema for one provider folder into a gitignored cache; returns path and text. */
export declare function writeSchema(provider: ProviderFolder): { path: string; content: string };
