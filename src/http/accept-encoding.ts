/** The compressed encodings this server sends, best first (brotli wins a tie). */
const ENCODINGS = ["br", "gzip"] as const;
export type ContentEncoding = (typeof ENCODINGS)[number];

/** Each coding named in an `Accept-Encoding` header with its weight (RFC 9110 §12.5.3). */
function weights(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!coding) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    named.set(coding === "x-gzip" ? "gzip" : coding, Number.isFinite(weight) ? weight : 0);
  }
  return named;
}

/**
 * The encoding to answer in: the accepted one of highest weight, or null for the body as is
 * (no header, or only codings we do not make). `*` stands for any coding the header does not name.
 */
export function preferredEncoding(header: string | undefined): ContentEncoding | null {
  if (!header) return null;
  const named = weights(header);
  let best: ContentEncoding | null = null;
  let bestWeight = 0;
  for (const encoding of ENCODINGS) {
    const weight = named.get(encoding) ?? named.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}
