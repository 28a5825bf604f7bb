// The HTTP API of `autograph serve` (docs/web-api.md): JSON requests carrying the session token.

const params = new URLSearchParams(location.search);
let token = params.get('token') || sessionStorage.getItem('autograph-token') || '';
if (token) sessionStorage.setItem('autograph-token', token);
if (params.has('token')) {
  // The server set its cookie when it answered this URL; keep the token out of the address bar.
  params.delete('token');
  const query = params.toString();
  history.replaceState(null, '', location.pathname + (query ? '?' + query : '') + location.hash);
}

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

/** A URL of the API with the token in its query (for `<img>`, links and `EventSource`). */
export function url(path, query = {}) {
  return build(path, token ? { ...query, token } : query);
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
  const headers = {};
  if (token) headers.Authorization = 'Bearer ' + token;
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
