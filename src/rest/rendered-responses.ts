import { RecentMap } from "../recent-map";

/**
 * A response body already serialised to JSON: sent as is, not serialised again. `Shape` is what
 * it holds. A large body is best given as UTF-8 bytes: sent without being measured and encoded.
 */
export class JsonText<Shape = unknown> {
  declare readonly shape?: Shape;
  constructor(readonly text: string | Buffer) {}
}

/** A success answer that is not JSON (a CSV or PDF document), sent as it is with its media type, as a download named `filename`. */
export class DocumentBody {
  constructor(
    readonly contentType: string,
    readonly body: Buffer | string,
    readonly filename: string,
  ) {}
}

/**
 * Serialised bodies of responses that never change for a key: location lookups (airports are
 * reference data) and offer retrievals (offers are immutable). Rendering them again costs more
 * than the rest of the request; at least the `capacity` most recent are kept.
 */
export class RenderedResponses {
  private readonly bodies: RecentMap<string, JsonText>;

  constructor(capacity: number) {
    this.bodies = new RecentMap(capacity);
  }

  /**
   * The cached body for `key`, or `render()` serialised and kept (a key always renders the same
   * shape), as UTF-8 bytes: each send of it is then a copy, with no text to measure or encode.
   */
  get<Shape>(key: string, render: () => Shape): JsonText<Shape> {
    let body = this.bodies.get(key) as JsonText<Shape> | undefined;
    if (!body) {
      body = new JsonText<Shape>(Buffer.from(JSON.stringify(render()), "utf8"));
      this.bodies.set(key, body);
    }
    return body;
  }
}
