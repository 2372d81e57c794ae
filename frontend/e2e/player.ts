import { get, type ClientRequest, type IncomingMessage } from "node:http";
import { Writable } from "node:stream";

export interface PacedPlayer {
  /** Bytes of the body read so far. */
  received: () => number;
  /** Drops the response and the request, as a player that is closed. */
  stop: () => void;
}

/**
 * A player reading `url` over WebDAV at about `bytesPerSecond`: the body is read at that pace, so the
 * stream stays open on the server while a test looks at it.
 */
export function playPaced(url: string, authorization: string, bytesPerSecond: number, range?: string): PacedPlayer {
  let received = 0;
  let response: IncomingMessage | undefined;
  const request: ClientRequest = get(url, { headers: { Authorization: authorization, ...(range ? { Range: range } : {}) } }, (res) => {
    response = res;
    res.on("error", () => {});
    res.pipe(
      new Writable({
        highWaterMark: 64 * 1024,
        write(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          setTimeout(done, (chunk.length / bytesPerSecond) * 1000);
        },
      }),
    );
  });
  request.on("error", () => {});
  return {
    received: () => received,
    stop: () => {
      response?.destroy();
      request.destroy();
    },
  };
}
