// The HTTP API of `autograph serve` (docs/web-api.md): JSON requests from the viewer's own origin.

// The browser's credential is the HttpOnly cookie the printed link set (the server answered the
// link with a redirect to '/', so the token is in no URL, history entry or request of this page).
// Every call also says it comes from the viewer (X-Autograph: 1, a header no other page can send
// here without the server's consent, which it never gives).

/** An error answer of the API: `code`, `signoCode` and `message` as the server sent them. */
export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || 'http' + status;
    this.signoCode = error.signoCode;
  }
}

/** A URL of the API (for `<img>`, links and `EventSource`: the cookie goes with them). */
export function url(path, query = {}) {
  return build(path, query);
}

function build(path, query = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return path + (text ? '?' + text : '');
}

/** Calls the API; `body` is sent as JSON unless it is a Blob or ArrayBuffer. */
export async function call(method, path, body, { query, signal } = {}) {
  const headers = { 'X-Autograph': '1' };
  let payload;
  if (body instanceof Blob || body instanceof ArrayBuffer) {
    payload = body;
    headers['Content-Type'] = body.type || 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(build(path, query), {
    method, headers, body: payload, signal, credentials: 'same-origin',
  });
  const type = response.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await response.json().catch(() => null) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** The answer of a request index.html's boot script started early, or a new request. */
export async function early(name, path) {
  const started = window.autographBoot && window.autographBoot[name];
  if (started) {
    delete window.autographBoot[name];
    const response = await started.catch(() => null);
    if (response) {
      const data = await response.json().catch(() => null);
      if (!response.ok) throw new ApiError(response.status, data);
      return data;
    }
  }
  return get(path);
}

export const get = (path, query, options = {}) => call('GET', path, undefined, { ...options, query });
export const post = (path, body) => call('POST', path, body);
export const put = (path, body) => call('PUT', path, body);
export const del = (path) => call('DELETE', path);

/** The session's events (`GET /api/events`) as DOM events on the returned EventTarget. */
export function events(names) {
  const target = new EventTarget();
  const source = new EventSource(url('/api/events'));
  for (const name of names) {
    source.addEventListener(name, (message) => {
      let data = null;
      try { data = message.data ? JSON.parse(message.data) : null; } catch { data = message.data; }
      target.dispatchEvent(new CustomEvent(name, { detail: data }));
    });
  }
  source.onerror = () => target.dispatchEvent(new CustomEvent('connection', { detail: source.readyState }));
  source.onopen = () => target.dispatchEvent(new CustomEvent('connection', { detail: source.readyState }));
  target.source = source;
  // A page kept in the back-forward cache would keep its stream open, and browsers allow only six
  // connections to a host: close it when the page is hidden, and start afresh when it comes back.
  window.addEventListener('pagehide', () => source.close());
  window.addEventListener('pageshow', (event) => { if (event.persisted) window.location.reload(); });
  return target;
}
