import type { WebSocket } from "ws";

/**
 * WebSocket connections that have not authenticated yet, counted per remote address and in all:
 * such a connection costs the server a socket and a message of up to 1 MB without any key, so
 * one address may hold only so many at once, and the process only so many in all. A connection
 * stops counting once its key is accepted or it closes.
 */
export class WaitingSockets {
  readonly #addressOf = new Map<WebSocket, string>();
  readonly #perAddress = new Map<string, number>();

  constructor(
    private readonly maxPerAddress: number,
    private readonly maxInAll: number,
  ) {}

  /** Counts a new connection from `address` as waiting; false (not counted) when that address or the process holds its most already. */
  admit(socket: WebSocket, address: string): boolean {
    const fromAddress = this.#perAddress.get(address) ?? 0;
    if (fromAddress >= this.maxPerAddress || this.#addressOf.size >= this.maxInAll) return false;
    this.#addressOf.set(socket, address);
    this.#perAddress.set(address, fromAddress + 1);
    socket.once("close", () => this.authenticated(socket));
    return true;
  }

  /** The connection's key was accepted (or it closed): it no longer counts. */
  authenticated(socket: WebSocket): void {
    const address = this.#addressOf.get(socket);
    if (address === undefined) return;
    this.#addressOf.delete(socket);
    const left = (this.#perAddress.get(address) ?? 1) - 1;
    if (left === 0) this.#perAddress.delete(address);
    else this.#perAddress.set(address, left);
  }
}
