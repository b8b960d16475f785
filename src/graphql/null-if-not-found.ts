import { AppError } from "../errors/app-error";

/** A Query field's record, or null when the tenant has none by that id (its `not_found`), as `order(id)` answers. */
export async function nullIfNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}
