/** An answer the server gave that was not a success, with what it said (`body`: its JSON, when it sent some). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
    /** Seconds the server asked to wait before trying again (`Retry-After`), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** GETs JSON from the server (same origin), failing with the server's own words when it refuses. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { signal, headers: { Accept: "application/json" }, credentials: "same-origin" });
  return read<T>(response);
}

/**
 * POSTs JSON with the session's anti-forgery token: the server refuses any change without it.
 * Answers without a body (204) resolve to undefined.
 */
export async function postJson<T>(path: string, body: unknown, csrfToken: string): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  return read<T>(response);
}

/** Bytes of a request body sent so far, of its whole size. */
export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * POSTs a multipart form (files) with the anti-forgery token (the browser sets the boundary),
 * reporting the upload as it goes: XMLHttpRequest, because fetch's request body has no progress
 * events. The answer is read by the same rules as every other call, 401s and refusals included.
 */
export function postFormWithProgress<T>(path: string, form: FormData, csrfToken: string, onProgress: (progress: UploadProgress) => void): Promise<T> {
  return new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("X-CSRF-Token", csrfToken);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ sent: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const empty = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
      resolve(new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onerror = () => reject(new TypeError("The upload could not reach the server (network error)."));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    xhr.send(form);
  }).then((response) => read<T>(response));
}

async function read<T>(response: Response): Promise<T> {
  if (!response.ok) {
    const text = (await response.text()).trim();
    const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    throw new ApiError(response.status, describeText(response, text), parseJson(text), Number.isFinite(retryAfter) ? retryAfter : null);
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** The server's own sentence when it sent one (`{"error": "…"}`), else the status line. */
export async function describeFailure(response: Response): Promise<string> {
  return describeText(response, (await response.text()).trim());
}

function describeText(response: Response, text: string): string {
  const parsed = parseJson(text);
  if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string") return parsed.error;
  if (text.length > 0 && text.length <= 300 && !text.startsWith("<")) return text;
  return `${response.status} ${response.statusText}`.trim();
}

/** The body as JSON, or null when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
