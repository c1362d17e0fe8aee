/** Small fetch wrapper for tests: returns status, headers and the parsed body. */

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON (problem+json included), else the text. */
  body: T;
  text: string;
}

export async function http<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer | object } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const parsed = type.includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Asserts a ProblemDetails answer and returns it. */
export function isProblem(result: HttpResult, status: number): boolean {
  const b = result.body as { status?: number; detail?: string };
  return (
    result.status === status &&
    (result.headers.get('content-type') ?? '').startsWith('application/problem+json') &&
    b.status === status &&
    typeof b.detail === 'string' &&
    b.detail.length > 0
  );
}
