import type { Credentials } from "../api/client";

const STORAGE_KEY = "aerogate-console-session";

/**
 * The key lives in this tab's sessionStorage only: it survives a reload, is gone when the tab
 * closes, and is never in a cookie (so no request carries it unless the console adds it) or in
 * the URL (so it is in no history, log or Referer).
 */
export function loadCredentials(): Credentials | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Partial<Credentials> | null;
    if (!stored || typeof stored.key !== "string") return null;
    return { key: stored.key, actingFor: typeof stored.actingFor === "string" ? stored.actingFor : null };
  } catch {
    return null;
  }
}

export function storeCredentials(credentials: Credentials | null): void {
  if (credentials) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
  else sessionStorage.removeItem(STORAGE_KEY);
}
