import { credentialHeaders, type Credentials } from "./client";

/**
 * Downloads a document the REST API answers (a statement as CSV or PDF, a receipt) with these
 * credentials, as a file the browser saves. Throws the API's error message when it refuses.
 */
export async function downloadDocument(credentials: Credentials, path: string, accept: string): Promise<void> {
  const response = await fetch(path, { headers: { ...credentialHeaders(credentials), accept } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The download failed (${response.status}).`);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "document";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
