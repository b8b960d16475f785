import { AppError } from "../errors/app-error";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Runs `work`, and when it fails with a catalogued error about a field, names that field as the
 * GraphQL input spells it: the domain's rules speak the REST names (`slices[0].departure_date`,
 * `passengers[0].born_on`), which `names` maps to GraphQL's (`departureDate`, `bornOn`).
 */
export async function inGraphQLFieldNames<T>(names: Readonly<Record<string, string>>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) || error.details.field === undefined) throw error;
    const pattern = new RegExp(`(?<![\\w\\]])(${Object.keys(names).map(escapeRegExp).join("|")})(?![\\w])`, "g");
    const rename = (text: string | undefined) => text?.replace(pattern, (name) => names[name]!);
    const { details } = error;
    throw new AppError(error.code, { ...details, field: rename(details.field), message: rename(details.message), reason: rename(details.reason) });
  }
}
