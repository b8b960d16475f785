/**
 * A webhook URL carries no credentials: a receiver knows deliveries are ours by their signature
 * (Standard Webhooks, the tenant's webhook secret), and a user name or password in a URL ends up
 * wherever the URL is shown or logged. New ones are refused (tenant-config.inputs.ts); one stored
 * before that rule still receives its deliveries as stored, and is shown without them.
 */
export function holdsCredentials(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && (parsed.username !== "" || parsed.password !== "");
}

/** The URL as the API shows it: as stored, less any user name and password. */
export function shownWebhookUrl(url: string): string {
  if (!holdsCredentials(url)) return url;
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.toString();
}
