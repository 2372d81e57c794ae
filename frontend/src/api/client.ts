/** An answer the server gave that was not a success, with what it said. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** GETs JSON from the server (same origin), failing with the server's own words when it refuses. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { signal, headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) {
    throw new ApiError(response.status, await describeFailure(response));
  }
  return (await response.json()) as T;
}

async function describeFailure(response: Response): Promise<string> {
  const text = (await response.text()).trim();
  const reason = text.length > 0 && text.length <= 500 ? text : response.statusText;
  return `${response.status} ${reason}`.trim();
}
