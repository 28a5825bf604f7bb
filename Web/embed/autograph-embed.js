// Autograph's embedding module, for the page that shows the viewer in a frame (the "host page").
// See docs/embedding.md for the whole story: the server's --embed-origin, the same-site limit, the
// message protocol and a complete example.
//
// An ES module (no classic-script form; no global is set):
//
//   import { AutographViewer } from 'https://viewer.example.com/embed/autograph-embed.js';
//   const viewer = AutographViewer.open(link, { container: document.getElementById('sign') });
//   viewer.on('processDidFinish', ({ reason }) => …);
//   viewer.on('willConfirmSigning', async ({ field }) => confirm(`Sign ${field}?`));
//
// `link` is a one-use sign-in link of `autograph serve` (the printed one, or one the host's backend
// got from POST /api/links with the API token). The viewer's origin is the link's; this module
// talks to that origin and to the frame's window only, and the viewer talks to the one origin
// given to `autograph serve --embed-origin` and to its parent window only.
//
// Pages count from 0 everywhere in this API (scrollToPage, the events' and decisions' `page`), as
// in the JSON API; signo's page numbers (`inPage:`) are these plus 1.

/** The version of the message shape (`{autograph: 1, type, …}`); messages of another are ignored. */
export const PROTOCOL = 1;

/**
 * The session's decisions: a handler's return value is the answer (see `on`). `documentSaved` is
 * one of them (answer true to grey Save out): the session event of that name, which always comes
 * just before it, is not delivered separately.
 */
export const DECISIONS = Object.freeze([
  'willStartSigning', 'signingProcessStarted', 'willConfirmSigning', 'computeDigitalSignature',
  'documentSaved', 'signatureInfoPressed', 'viewerRectConfirmed',
]);

/** What the viewer is told without answering: handlers are called, their return values ignored. */
export const NOTIFICATIONS = Object.freeze(['backButtonPressed', 'viewerRectCancelled']);

/** The session's events (GET /api/events, docs/web-api.md), the viewer's `ready` and `phase`. */
export const EVENTS = Object.freeze([
  'ready', 'phase', 'documentDidLoad', 'fieldChanged', 'missingRequiredFormField', 'selectSignatureFormField',
  'didSelectSignatureFormField', 'signatureCaptureRequired', 'savedSignatureSelectionRequired',
  'signatureRequiresPositioning', 'onConfirmationRequired', 'willPrepareDocument', 'documentPreparedForSignature',
  'processDidFinish', 'documentCompleted', 'processDidFail', 'signingProcessConfirmed', 'signingProcessCancelled',
  'signingProcessFailed', 'signatureFieldCreated', 'photoFieldsDeclared', 'photoPlaced', 'photoCaptureFailed',
  'notesModeDidStart', 'notesModeDidFailToStart', 'notesModeDidFinish', 'notesModeDidFinishWithFailure',
  'pageChanged', 'configurationChanged',
]);

/** The answers kept for decisions already answered (a reloaded viewer forwards them again). */
const KEPT_ANSWERS = 200;

/** A viewer in a frame of this page: made by `AutographViewer.open`. */
export class AutographViewer {
  /**
   * Opens the viewer in a new `<iframe>` appended to `options.container`.
   * @param {string} url a sign-in link of `autograph serve` (`https://viewer.example.com/?login=CODE`)
   * @param {object} options `container` (an Element, required), `title` (the frame's accessible
   *   name, default "Document signing"), `className`, `width` and `height` (CSS lengths set through
   *   the CSSOM, default 100%), `commandTimeout` (ms a command waits for the viewer, default 30000)
   * @returns {AutographViewer}
   */
  static open(url, options = {}) {
    return new AutographViewer(url, options);
  }

  constructor(url, { container, title = 'Document signing', className = '', width = '100%', height = '100%', commandTimeout = 30000 } = {}) {
    if (!(container instanceof Element)) throw new TypeError('AutographViewer.open needs options.container, an Element');
    const address = new URL(url, window.location.href);
    if (address.protocol !== 'https:' && address.protocol !== 'http:') {
      throw new TypeError('the viewer link must be an http or https URL');
    }
    /** The viewer's origin: the only one this module sends to or hears from. */
    this.origin = address.origin;
    this.handlers = new Map();
    this.pending = new Map();
    this.answers = new Map();
    this.decisionsRunning = new Set();
    this.requestCounter = 0;
    this.commandTimeout = commandTimeout;
    this.closed = false;
    this.ready = new Promise((resolve) => { this.resolveReady = resolve; });

    const frame = document.createElement('iframe');
    frame.title = title;
    if (className) frame.className = className;
    frame.referrerPolicy = 'no-referrer';
    frame.style.border = '0';
    frame.style.width = width;
    frame.style.height = height;
    frame.src = address.href;
    /** The `<iframe>` showing the viewer. */
    this.frame = frame;
    this.listener = (event) => this.receive(event);
    window.addEventListener('message', this.listener);
    container.append(frame);
  }

  /**
   * Registers `handler` for `name`: a session event (EVENTS: called with the event's data), a
   * notification (NOTIFICATIONS) or a decision (DECISIONS: called with the decision's arguments,
   * e.g. `{field}`, and `{decision, id, documentID}`; it may be async, and what it returns is the
   * answer — `undefined` leaves the answer to the next handler, and with none the server applies
   * the seeds' default). A decision handler may call `configure` before it returns: that change
   * reaches the server before the answer, so it applies to the step the decision starts (the
   * capture dialog's `displayText` set in `willStartSigning`).
   * @returns {() => void} removes the handler
   */
  on(name, handler) {
    if (typeof handler !== 'function') throw new TypeError('a handler must be a function');
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    this.handlers.get(name).push(handler);
    return () => this.off(name, handler);
  }

  /** Removes a handler `on` registered. */
  off(name, handler) {
    const list = this.handlers.get(name) || [];
    const index = list.indexOf(handler);
    if (index >= 0) list.splice(index, 1);
  }

  /**
   * Changes the configuration while the viewer runs (POST /api/configuration from the frame):
   * `{viewer: {acceptsInput, showsToolbar, toolbarHeight, showsPageNumber, backgroundColor,
   * searchHighlightColor, continuousScrolling, verticalScrolling, twoPageSpreads, firstPageAlone,
   * allowsRotation}, capture: {displayText, textColor, signatureColor, position}, appearance: {…}}`.
   * Resolves with the configuration as it is now; rejects with the server's error (nothing changed).
   */
  configure(changes) {
    const request = this.request('configure', { changes });
    // A decision waiting on its handler is answered only once this change is applied.
    for (const running of this.decisionsRunning) running.add(request.catch(() => {}));
    return request;
  }

  /** Scrolls field `name` into view (and focuses it with `{focus: true}`); resolves false when the field is not shown. */
  scrollToField(name, { focus = false } = {}) {
    return this.request('scrollToField', { name: String(name), focus: Boolean(focus) });
  }

  /** Scrolls to page `index`, counting from 0; rejects for a page the document does not have. */
  scrollToPage(index) {
    return this.request('scrollToPage', { index });
  }

  /** Searches the document's text; resolves with the number of results (highlighted, the first shown). */
  search(query, { caseSensitive = false, wholeWord = false, diacriticSensitive = false } = {}) {
    return this.request('search', {
      query: String(query), caseSensitive: Boolean(caseSensitive), wholeWord: Boolean(wholeWord),
      diacriticSensitive: Boolean(diacriticSensitive),
    });
  }

  /** Shows search result `index` (from 0, in the order `search` found them), highlighted in `color` ("#rrggbb") if given. */
  scrollToSearchResult(index, { color } = {}) {
    return this.request('scrollToSearchResult', { index, color: color ?? null });
  }

  /** The viewer's state (GET /api/state: documentID, pageCount, phase, viewer, capture …). */
  state() {
    return this.request('state', {});
  }

  /** Removes the frame and stops listening; pending commands reject. */
  close() {
    if (this.closed) return;
    this.closed = true;
    window.removeEventListener('message', this.listener);
    this.frame.remove();
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new Error('the viewer was closed'));
    }
    this.pending.clear();
  }

  // ── Messages ────────────────────────────────────────────────────────────────────────────────

  /** Sends a message to the frame's window, for the viewer's origin only. */
  send(message) {
    const target = this.frame.contentWindow;
    if (!this.closed && target) target.postMessage({ autograph: PROTOCOL, ...message }, this.origin);
  }

  /**
   * A command to the viewer, sent once it is ready; resolves with its `result`, rejects with its
   * `error`, or after `commandTimeout` (the wait for `ready` included).
   */
  request(command, args) {
    if (this.closed) return Promise.reject(new Error('the viewer was closed'));
    this.requestCounter += 1;
    const requestId = this.requestCounter;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`the viewer did not answer ${command} in time`));
      }, this.commandTimeout);
      this.pending.set(requestId, { resolve, reject, timer });
      this.ready.then(() => {
        if (this.pending.has(requestId)) this.send({ type: 'command', requestId, command, args });
      });
    });
  }

  /** A message from the viewer: its origin and its window are checked before anything is read. */
  receive(event) {
    if (event.origin !== this.origin || event.source !== this.frame.contentWindow) return;
    const message = event.data;
    if (!message || typeof message !== 'object' || message.autograph !== PROTOCOL) return;
    switch (message.type) {
      case 'ready':
        this.resolveReady();
        this.emit('ready', message.state ?? {});
        break;
      case 'event':
        // An event named as a decision (documentSaved) goes to the decision's handlers only.
        if (typeof message.name !== 'string' || message.name === 'ready' || DECISIONS.includes(message.name)) return;
        this.emit(message.name, message.data);
        break;
      case 'decision':
        this.decide(message);
        break;
      case 'reply': {
        const waiting = this.pending.get(message.requestId);
        if (!waiting) return;
        this.pending.delete(message.requestId);
        clearTimeout(waiting.timer);
        if (message.ok) waiting.resolve(message.result);
        else waiting.reject(Object.assign(new Error(message.error?.message || 'the viewer refused'), message.error || {}));
        break;
      }
      default:
        break;
    }
  }

  /** Calls every handler of a session event or notification; one that throws does not stop the others. */
  emit(name, data) {
    for (const handler of [...(this.handlers.get(name) || [])]) {
      try {
        Promise.resolve(handler(data)).catch((error) => console.error('autograph-embed:', name, error));
      } catch (error) {
        console.error('autograph-embed:', name, error);
      }
    }
  }

  /** Answers a decision: its handlers in turn, the first value other than undefined is the answer. */
  async decide({ id, decision, documentID, arguments: args }) {
    if (typeof id !== 'string' || typeof decision !== 'string') return;
    if (NOTIFICATIONS.includes(decision)) {
      if (!this.answers.has(id)) {
        this.keep(id, null);
        this.emit(decision, args ?? {});
      }
      return;
    }
    // A reloaded viewer forwards a waiting decision again: answer it as before, or once the
    // handler running now has answered.
    if (this.answers.has(id)) {
      const kept = await this.answers.get(id);
      this.send({ type: 'answer', id, ...kept });
      return;
    }
    let settle;
    this.keep(id, new Promise((resolve) => { settle = resolve; }));
    const configurations = new Set();
    this.decisionsRunning.add(configurations);
    let answer;
    let handled = false;
    try {
      for (const handler of [...(this.handlers.get(decision) || [])]) {
        const value = await handler(args ?? {}, { decision, id, documentID });
        if (value !== undefined) {
          answer = value;
          handled = true;
          break;
        }
      }
    } catch (error) {
      console.error('autograph-embed:', decision, error);
      answer = undefined;
      handled = false;
    } finally {
      this.decisionsRunning.delete(configurations);
    }
    // The handler's configuration changes reach the server before its answer.
    await Promise.all(configurations);
    const reply = { answer: answer === undefined ? null : answer, handled };
    settle(reply);
    this.send({ type: 'answer', id, ...reply });
  }

  keep(id, value) {
    this.answers.set(id, value);
    if (this.answers.size > KEPT_ANSWERS) this.answers.delete(this.answers.keys().next().value);
  }
}

export default AutographViewer;
