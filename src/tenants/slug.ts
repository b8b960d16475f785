import { randomBytes } from "node:crypto";

/** A URL-safe slug from a display name: "Agence Müller & Fils" → "agence-muller-fils". */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return slug || "tenant";
}

/** The slug with a random suffix, for when the plain one is taken. */
export function disambiguatedSlug(slug: string): string {
  return `${slug}-${randomBytes(3).toString("hex")}`;
}
