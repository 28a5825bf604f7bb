// The viewer's side of embedding (docs/embedding.md): when `autograph serve --embed-origin ORIGIN`
// gave an origin (GET /api/state `embedOrigin`) and this page is in a frame, the session's events
// and the host's decisions go to the parent window — for that origin only — and the parent's
// answers and commands are taken from that window and that origin only.
//
// Messages are objects `{autograph: 1, type, …}` (docs/embedding.md lists them). Decisions arrive
// from the server as `decision` events (`{id, decision, documentID, arguments}`), at most once to
// the parent however often the event stream delivers them; the parent's answer goes back with
// POST /api/decisions/ID. A viewer that is not framed by the host (opened in a tab of its own)
// answers every decision at once with null: the server applies the seeds' default.
import { get, post } from './api.js';

/** The version of the message shape; messages of another version are ignored. */
export const PROTOCOL = 1;

/** Decisions the server does not wait for: the parent is told, nothing is posted back. */
const NOTIFICATIONS = new Set(['backButtonPressed', 'viewerRectCancelled']);

/** How many decision ids are remembered to drop repeats (a reconnecting stream sends them again). */
const REMEMBERED = 500;

export class EmbedBridge {
  /** `app` the viewer; decisions and events are held until `start(state)` says who receives them. */
  constructor(app) {
    this.app = app;
    this.origin = null;
    this.started = false;
    this.held = [];
    this.seen = new Set();
    this.waiting = new Map();
    /** What the host answered to each viewer rectangle: id → whether a handler decided. */
    this.rectAnswers = new Map();
    this.onMessage = (event) => this.receive(event);
  }

  /** True when the viewer is shown by the host page and talks to it. */
  get active() { return this.origin !== null; }

  /** Decides where messages go from the state (`embedOrigin`) and sends what was held. */
  start(state) {
    if (this.started) return;
    this.started = true;
    const origin = typeof state?.embedOrigin === 'string' ? state.embedOrigin : null;
    if (origin && window.parent !== window) {
      this.origin = origin;
      window.addEventListener('message', this.onMessage);
    }
    const held = this.held;
    this.held = [];
    for (const [kind, name, data] of held) {
      if (kind === 'decision') this.decision(data);
      else this.event(name, data);
    }
  }

  /** Tells the parent the viewer is ready (its document shown), or why it is not (`error`). */
  ready(state, error) {
    this.post({
      type: 'ready',
      state: error ? { error: { code: error.code || 'error', message: error.message || String(error) } }
        : { documentID: state?.documentID ?? null, pageCount: state?.pageCount ?? 0, phase: state?.phase ?? null },
    });
  }

  /** A session event (and `phase`, `configurationChanged`) for the parent. */
  event(name, data) {
    if (!this.started) { this.held.push(['event', name, data]); return; }
    this.post({ type: 'event', name, data: data ?? null });
  }

  /** A `decision` event from the server: to the parent once, or answered null when there is none. */
  decision(data) {
    if (!this.started) { this.held.push(['decision', null, data]); return; }
    const id = data?.id;
    if (typeof id !== 'string' || this.seen.has(id)) return;
    this.seen.add(id);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.values().next().value);
    const notification = NOTIFICATIONS.has(data.decision);
    if (!this.active) {
      if (!notification) this.answer(id, { answer: null });
      return;
    }
    if (!notification) this.waiting.set(id, data);
    this.post({ type: 'decision', id, decision: data.decision, documentID: data.documentID ?? null, arguments: data.arguments ?? {} });
  }

  /** Posts the answer of decision `id` to the server; a decision no longer waiting (404) is dropped. */
  async answer(id, body) {
    try {
      await post('/api/decisions/' + encodeURIComponent(id), body);
    } catch (error) {
      if (error.status !== 404) console.warn('autograph: the answer to a decision was not delivered', error);
    }
  }

  /** Whether the parent's handler decided viewer rectangle `id` (and forgets it). */
  takeRectAnswer(id) {
    const handled = this.rectAnswers.get(id) === true;
    this.rectAnswers.delete(id);
    return handled;
  }

  post(message) {
    if (this.active) window.parent.postMessage({ autograph: PROTOCOL, ...message }, this.origin);
  }

  /** A message: only from the embedding origin and the parent window, of this protocol's version. */
  receive(event) {
    if (event.origin !== this.origin || event.source !== window.parent) return;
    const message = event.data;
    if (!message || typeof message !== 'object' || message.autograph !== PROTOCOL) return;
    if (message.type === 'answer') this.answered(message);
    else if (message.type === 'command') this.command(message);
  }

  answered({ id, answer, configuration, handled }) {
    const decision = this.waiting.get(id);
    if (!decision) return;
    this.waiting.delete(id);
    if (decision.decision === 'viewerRectConfirmed') {
      this.rectAnswers.set(decision.arguments?.id, handled === true && typeof answer === 'boolean');
    }
    const body = { answer: answer === undefined ? null : answer };
    if (configuration && typeof configuration === 'object') body.configuration = configuration;
    this.answer(id, body);
  }

  async command({ requestId, command, args }) {
    const reply = (ok, value) => this.post({ type: 'reply', requestId, ok, [ok ? 'result' : 'error']: value });
    try {
      reply(true, await this.run(command, args || {}));
    } catch (error) {
      reply(false, { code: error.code || 'invalidArgument', message: error.message || String(error), status: error.status ?? null });
    }
  }

  /** What each command does; pages count from 0. */
  async run(command, args) {
    const app = this.app;
    switch (command) {
      case 'configure': return post('/api/configuration', args.changes ?? {});
      case 'state': return get('/api/state');
      case 'scrollToField': return app.scrollToField(String(args.name), { focus: args.focus === true });
      case 'scrollToPage': {
        const index = args.index;
        const count = app.pages.pages.length;
        if (!Number.isInteger(index) || index < 0 || index >= count) {
          throw refusal(`page ${index} does not exist: pages count from 0 to ${count - 1}`);
        }
        app.pages.goTo(index);
        return index;
      }
      case 'search': return app.search.find(String(args.query ?? ''), {
        caseSensitive: args.caseSensitive === true, wholeWord: args.wholeWord === true,
        diacriticSensitive: args.diacriticSensitive === true,
      });
      case 'scrollToSearchResult': {
        const count = app.search.results.length;
        if (!Number.isInteger(args.index) || args.index < 0 || args.index >= count) {
          throw refusal(count ? `search result ${args.index} does not exist: results count from 0 to ${count - 1}` : 'there are no search results');
        }
        if (args.color !== null && args.color !== undefined && !/^#[0-9a-fA-F]{6}$/.test(String(args.color))) {
          throw refusal('color must be written #rrggbb');
        }
        await app.search.select(args.index, args.color ?? null);
        return args.index;
      }
      default: throw refusal(`no command ${String(command).slice(0, 40)}`);
    }
  }
}

function refusal(message) {
  return Object.assign(new Error(message), { code: 'invalidArgument' });
}
