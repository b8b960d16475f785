import { createHmac, timingSafeEqual } from "node:crypto";
import { appError } from "../errors/app-error";
import { clock } from "../clock";

/** Where a page starts: the (createdAt, id) of the item next to it. */
export interface Position {
  createdAt: Date;
  id: string;
}

export type Direction = "next" | "prev";

const CURSOR_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface CursorBody {
  /** The list this cursor belongs to; a cursor from another list is refused. */
  l: string;
  t: number;
  i: string;
  d: "n" | "p";
  /** Expiry, epoch milliseconds. */
  e: number;
}

/**
 * Opaque, signed, expiring cursors (docs/rest-api.md#pagination). The payload is base64url JSON followed by a
 * truncated HMAC-SHA256, so a client cannot forge a position or revive an expired cursor.
 */
export class CursorCodec {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = () => clock.nowMs(),
  ) {}

  encode(list: string, position: Position, direction: Direction): string {
    const body: CursorBody = { l: list, t: position.createdAt.getTime(), i: position.id, d: direction === "next" ? "n" : "p", e: this.now() + CURSOR_LIFETIME_MS };
    const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  /** The position and direction of a cursor from `list`; 400 `INVALID_CURSOR` otherwise. */
  decode(list: string, cursor: string): { position: Position; direction: Direction } {
    const invalid = () => appError("INVALID_CURSOR", { field: "cursor" });
    const [payload, signature, extra] = cursor.split(".");
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let body: CursorBody;
    try {
      body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as CursorBody;
    } catch {
      throw invalid();
    }
    if (body.l !== list || body.e < this.now()) throw invalid();
    return { position: { createdAt: new Date(body.t), id: body.i }, direction: body.d === "n" ? "next" : "prev" };
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.secret).update(payload).digest().subarray(0, 16).toString("base64url");
  }
}
