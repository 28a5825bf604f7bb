// The web viewer: wires the page view, fields, toolbar, search, notes and the signing workflow to
// the API of `autograph serve` (docs/web-api.md).
import { early, events, get, post } from './api.js';
import { PageView } from './pages.js';
import { FieldLayer } from './fields.js';
import { Workflow } from './workflow.js';
import { Search } from './search.js';
import { Sidebar } from './sidebar.js';
import { Notes } from './notes.js';
import { ValidationPanel } from './validation.js';
import { buildToolbar } from './toolbar.js';
import { editRectangle } from './box.js';
import { announce, h } from './dialogs.js';
import { cssColor } from './capture.js';
import { pdfRect } from './geometry.js';
import { EmbedBridge } from './embed.js';

const EVENTS = [
  'documentDidLoad', 'fieldChanged', 'missingRequiredFormField', 'selectSignatureFormField',
  'didSelectSignatureFormField', 'signatureCaptureRequired', 'savedSignatureSelectionRequired',
  'signatureRequiresPositioning', 'onConfirmationRequired', 'willPrepareDocument',
  'documentPreparedForSignature', 'processDidFinish', 'documentCompleted', 'processDidFail', 'signingProcessConfirmed',
  'signingProcessCancelled', 'signingProcessFailed', 'signatureFieldCreated', 'photoFieldsDeclared', 'photoPlaced',
  'photoCaptureFailed', 'notesModeDidStart', 'notesModeDidFailToStart', 'notesModeDidFinish',
  'notesModeDidFinishWithFailure', 'pageChanged', 'documentSaved', 'phase', 'configurationChanged',
];

/** What the tests and the host page can read: timings and the tiles requested. */
const metrics = { firstTile: null, firstPage: null, tiles: [] };
window.autographMetrics = metrics;

class App {
  constructor() {
    this.viewport = document.getElementById('viewport');
    this.state = {};
    this.pages = new PageView(this.viewport, document.getElementById('content'), {
      onPageChange: (index) => {
        this.toolbar?.setPage(index, this.pages.pages.length);
        this.sidebar?.setCurrent(index);
        // The session knows the page in view (a signature to position is proposed there).
        clearTimeout(this.pageReport);
        this.pageReport = setTimeout(() => post('/api/page', { page: index }).catch(() => {}), 250);
      },
      onZoomChange: (zoom, fit) => this.toolbar?.setZoom(zoom, fit),
      onDocumentChange: () => this.sidebar?.reset(),
      onFirstTile: (index) => {
        if (metrics.firstTile === null) metrics.firstTile = performance.now();
        if (index === 0 && metrics.firstPage === null) metrics.firstPage = performance.now();
        metrics.tiles.push(index);
      },
    });
    this.workflow = new Workflow(this);
    // The page that frames the viewer, when `autograph serve --embed-origin` names it (embed.js).
    this.embed = new EmbedBridge(this);
    /** Whether the document takes scrolling, zooming, focus and pointer input (signo enableTouchEvents). */
    this.acceptsInput = true;
    this.fields = new FieldLayer(this.pages, {
      onSign: (name) => this.workflow.sign(name),
      onPhoto: (name) => this.choosePhoto(name),
      onError: (error) => this.workflow.showError(error, 'The field was not saved'),
    });
    this.toolbar = buildToolbar(this, document.getElementById('toolbar'));
    // The banner goes under the toolbar as it is laid out: on a phone its buttons take two rows or
    // more, which a banner placed by --toolbar-height alone would cover.
    const toolbarElement = document.getElementById('toolbar');
    new ResizeObserver(() => document.documentElement.style.setProperty(
      '--toolbar-bottom', `${toolbarElement.hidden ? 0 : toolbarElement.getBoundingClientRect().bottom}px`,
    )).observe(toolbarElement);
    this.validation = new ValidationPanel(this, this.toolbar.validationButton);
    this.search = new Search(this, document.getElementById('searchbar'));
    this.sidebar = new Sidebar(this, document.getElementById('sidebar'), document.getElementById('tb-sidebar'));
    this.notes = new Notes(this, document.getElementById('notesbar'));
    this.photoInput = h('input', { type: 'file', accept: 'image/*', capture: 'environment', id: 'photo-input', className: 'visually-hidden', tabindex: '-1', 'aria-hidden': 'true' });
    this.photoInput.addEventListener('change', () => this.uploadPhoto());
    document.body.append(this.photoInput);
    // The first stop of the keyboard: straight to the first field to fill, past the toolbar.
    const skip = h('a', { href: '#viewport', className: 'skip-link', id: 'skip-link', textContent: 'Skip to the first field' });
    skip.addEventListener('click', (event) => {
      event.preventDefault();
      if (!this.fields.focusFirst()) this.viewport.focus();
    });
    document.body.prepend(skip);
    this.wireZoom();
    this.wireKeys();
  }

  async start() {
    const state = early('state', '/api/state');
    const pages = early('pages', '/api/pages');
    const fields = early('fields', '/api/fields').catch(() => []);
    const opened = new Promise((resolve) => {
      this.events = events([...EVENTS, 'decision']);
      this.events.addEventListener('connection', () => {
        if (this.events.source.readyState === EventSource.OPEN) resolve();
        document.body.dataset.connected = this.events.source.readyState === EventSource.OPEN ? '1' : '';
      });
    });
    for (const name of EVENTS) this.events.addEventListener(name, (event) => this.embed.event(name, event.detail));
    this.events.addEventListener('decision', (event) => this.embed.decision(event.detail));
    // A change after a save makes Save available again (documentSaved greyed it out).
    for (const name of ['fieldChanged', 'photoPlaced', 'signatureFieldCreated', 'signingProcessConfirmed', 'processDidFinish', 'notesModeDidFinish', 'documentDidLoad']) {
      this.events.addEventListener(name, () => this.toolbar.setSaved(false));
    }
    // The signature panel follows every change after a signature at once (a new revision to judge),
    // whoever made it: this browser, another, the host.
    for (const name of ['fieldChanged', 'photoPlaced', 'signatureFieldCreated', 'notesModeDidFinish']) {
      this.events.addEventListener(name, () => {
        clearTimeout(this.validationRefresh);
        this.validationRefresh = setTimeout(() => this.validation.refresh(), 300);
      });
    }
    const handlers = {
      ...this.workflow.handlers(), ...this.notes.handlers(),
      configurationChanged: (data) => this.configurationChanged(data),
    };
    for (const [name, handler] of Object.entries(handlers)) {
      this.events.addEventListener(name, (event) => {
        try {
          Promise.resolve(handler(event.detail)).catch((error) => console.error(name, error));
        } catch (error) {
          console.error(name, error);
        }
      });
    }
    try {
      this.applyState(await state);
      this.embed.start(this.state);
      performance.mark('autograph:state');
      await this.pages.setPages(await pages, { continuous: this.continuous, vertical: this.vertical, spreads: this.spreads, cover: this.cover });
      this.toolbar.setPage(0, this.pages.pages.length);
      this.fields.set(await fields);
      this.updateFinish();
    } catch (error) {
      document.body.dataset.error = error.code || 'error';
      this.embed.start(this.state);
      this.embed.ready(this.state, error);
      await this.workflow.showError(error, error.status === 403 ? 'Access refused' : 'The document could not be opened');
      return;
    }
    await opened;
    // After the first tiles: validating hashes the whole file on the server.
    this.validation.refresh();
    get('/api/provider-signing').then((answer) => {
      this.toolbar.showProvider(answer);
      // Back from the provider with an account whose credentials each ask for a PIN: choose one.
      if (answer?.available && !answer.signer && answer.credentials?.length && this.state?.phase === 'editing') {
        this.workflow.chooseProviderCredential(answer);
      }
    }, () => {});
    document.body.dataset.ready = '1';
    this.embed.ready(this.state);
    // Whatever step the session waits on gets its dialog back (a reload is never a dead end), and
    // whatever the viewer showed — a search, an open rectangle — is drawn again from the session.
    this.workflow.resume(this.state);
    this.resumeMode(this.state.mode);
  }

  /** Draws the session's viewer mode after a reload (notes come back with the notes phase). */
  resumeMode(mode) {
    if (mode?.name === 'search') this.search.show(mode, { scroll: false });
    if (mode?.name === 'viewerRect') this.newSignatureField(mode.id);
  }

  applyState(state) {
    this.state = state || {};
    this.applyViewer(this.state.viewer || {});
    const locked = Boolean(this.state.readOnly) || this.state.phase === 'finished';
    this.toolbar.setReadOnly(locked);
    this.fields.readOnly = locked;
    this.fields.photoFields = new Set(this.state.photoFields || []);
    this.workflow.setPhase(this.state.phase || 'editing');
  }

  /** Shows the document as the viewer configuration says (at load, and on `configurationChanged`). */
  applyViewer(viewer) {
    const layout = [this.continuous, this.vertical, this.spreads, this.cover];
    this.continuous = viewer.continuousScrolling ?? true;
    this.vertical = viewer.verticalScrolling ?? true;
    this.spreads = viewer.twoPageSpreads === true;
    this.cover = viewer.firstPageAlone !== false;
    const toolbar = document.getElementById('toolbar');
    toolbar.hidden = viewer.showsToolbar === false || viewer.showToolbar === false;
    const root = document.documentElement.style;
    root.setProperty('--toolbar-height', `${Math.max(36, viewer.toolbarHeight || 50)}px`);
    root.setProperty('--page-background', cssColor(viewer.backgroundColor, '#e6e6e6'));
    root.setProperty('--hit', translucent(viewer.searchHighlightColor, 0.4) || 'rgba(255, 214, 0, 0.4)');
    this.toolbar.showPageNumber(viewer.showsPageNumber ?? viewer.showPageNumber ?? true);
    // signo enableTouchEvents: no scrolling, zooming, focus or pointer input on the document (the
    // toolbar and dialogs still work; the host scrolls with scrollToPage / scrollToField).
    this.acceptsInput = viewer.acceptsInput !== false;
    this.viewport.classList.toggle('no-input', !this.acceptsInput);
    this.pages.content.inert = !this.acceptsInput;
    if (viewer.allowsRotation === false && screen.orientation?.lock) {
      screen.orientation.lock(screen.orientation.type).catch(() => {});
    }
    const changed = layout.some((value, i) => value !== [this.continuous, this.vertical, this.spreads, this.cover][i]);
    if (changed && this.pages.pages.length) {
      const page = this.pages.current;
      this.pages.setPages(this.pages.pages, { continuous: this.continuous, vertical: this.vertical, spreads: this.spreads, cover: this.cover })
        .then(() => { this.fields.set([...this.fields.fields.values()].map((field) => field.raw)); this.pages.goTo(page); })
        .catch((error) => console.warn(error));
    }
  }

  /** The configuration changed while the session runs (POST /api/configuration, a host's answer). */
  configurationChanged(data) {
    if (data?.viewer) {
      this.state.viewer = data.viewer;
      this.applyViewer(data.viewer);
    }
    if (data?.capture) this.state.capture = data.capture;
  }

  /** Scrolls field `name` into view, focusing its control with `focus`: false when the field is not shown. */
  scrollToField(name, { focus = false } = {}) {
    if (!this.fields.scrollTo(name)) return false;
    if (focus) this.fields.elements.get(name)?.[0]?.querySelector('input, textarea, select, button')?.focus({ preventScroll: true });
    return true;
  }

  /** The document changed (signed, notes, photo): new tiles and field values. */
  async reloadDocument() {
    this.pages.refreshTiles();
    this.validation.refresh();
    try {
      this.toolbar.showProvider(await get('/api/provider-signing'));
      this.applyState(await get('/api/state'));
      this.fields.set((await get('/api/fields')) || []);
      this.updateFinish();
    } catch (error) {
      console.warn(error);
    }
  }

  /** Finish is offered while editing a document that holds a signature (after a reload too). */
  updateFinish() {
    const signed = [...this.fields.fields.values()].some((field) => field.raw?.signed);
    this.toolbar.showFinish(signed && (document.body.dataset.phase || 'editing') === 'editing' && !this.state.readOnly);
  }

  /** Another document was opened: everything again. */
  async loadDocument() {
    this.toolbar.showProvider(await get('/api/provider-signing').catch(() => null));
    this.applyState(await get('/api/state'));
    await this.pages.setPages(await get('/api/pages'), { continuous: this.continuous, vertical: this.vertical, spreads: this.spreads, cover: this.cover });
    this.pages.refreshTiles();
    this.fields.set((await get('/api/fields')) || []);
    this.updateFinish();
    this.toolbar.setPage(0, this.pages.pages.length);
    this.validation.showCurrent();
    this.validation.refresh();
  }

  /** signo backButtonPressed: the host is told (POST /api/buttons/back, the `autograph:back`
   *  window event); a viewer in a tab of its own also goes back in the history. */
  async back() {
    window.dispatchEvent(new CustomEvent('autograph:back'));
    await post('/api/buttons/back').catch((error) => console.warn(error));
    // In a frame, the history is the host page's: going back is the host's to decide.
    if (window.parent === window && history.length > 1) history.back();
  }

  /** signo signatureInfoPressed: the standard dialog unless the host shows its own (`show` false). */
  async signatureInfo() {
    let show = true;
    try {
      show = (await post('/api/buttons/signature-info'))?.show !== false;
    } catch (error) {
      console.warn(error);
    }
    if (show) await this.workflow.signatureFieldList();
  }

  /** Saves; the host's `documentSaved` answer (true by default) greys the button out until the next change. */
  async save() {
    try {
      const answer = await post('/api/save');
      announce('Saved');
      if (answer?.saved === true) this.toolbar.setSaved(true);
    } catch (error) {
      this.workflow.showError(error, 'The document was not saved');
    }
  }

  /** Zooms by `factor`; `focus` ({x, y} from the viewport's top left) stays where it is on screen. */
  zoomBy(factor, focus = null) {
    // The layout's bounds (LayoutConfiguration's, sent by GET /api/layout): one rule for both sides.
    const { minZoom = 0.25, maxZoom = 8 } = this.pages.layout || {};
    const zoom = Math.max(minZoom, Math.min(maxZoom, this.pages.zoom * factor));
    if (Math.abs(zoom - this.pages.zoom) > 1e-3) this.pages.relayout({ fit: 'zoom', zoom, focus });
  }

  /** Fits the pages to the viewport's width (`width`) or whole (`page`). */
  fit(fit) {
    this.pages.relayout({ fit });
    announce(fit === 'width' ? 'Fit width' : 'Fit page');
  }

  wireZoom() {
    // Without input, the wheel neither scrolls the document nor the page around the frame.
    this.viewport.addEventListener('wheel', (event) => { if (!this.acceptsInput) event.preventDefault(); }, { passive: false });
    // Zooming stays in the browser (a round trip per frame would lag the fingers); the point under
    // the pointer or between the fingers stays still on screen.
    let factor = 1;
    let pending = false;
    let focus = null;
    const local = (x, y) => {
      const rect = this.viewport.getBoundingClientRect();
      return { x: x - rect.left, y: y - rect.top };
    };
    const schedule = (f, at) => {
      factor *= f;
      focus = at;
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        const f = factor;
        factor = 1;
        this.zoomBy(f, focus);
      });
    };
    this.viewport.addEventListener('wheel', (event) => {
      if (!this.acceptsInput || (!event.ctrlKey && !event.metaKey)) return;
      event.preventDefault();
      schedule(Math.exp(-event.deltaY * 0.0025), local(event.clientX, event.clientY));
    }, { passive: false });
    // One page at a time: the wheel (or a trackpad's swipe) turns the page once the page in view
    // cannot scroll further that way (a page zoomed larger than the viewport scrolls first).
    let turn = 0;
    let turned = 0;
    this.viewport.addEventListener('wheel', (event) => {
      if (!this.acceptsInput || event.ctrlKey || event.metaKey || this.pages.continuous || !this.pages.layout) return;
      const vertical = Math.abs(event.deltaY) >= Math.abs(event.deltaX);
      const delta = (vertical ? event.deltaY : event.deltaX) * (event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1);
      if (!delta) return;
      const v = this.viewport;
      const frame = this.pages.layout.pages.find((p) => p.index === this.pages.current)?.frame;
      if (frame) {
        const [start, length] = vertical ? [frame[1], frame[3]] : [frame[0], frame[2]];
        const [offset, size] = vertical ? [v.scrollTop, v.clientHeight] : [v.scrollLeft, v.clientWidth];
        if (delta > 0 ? start + length > offset + size + 1 : start < offset - 1) return;
      }
      event.preventDefault();
      const now = performance.now();
      if (now - turned < 350) return;
      turn += delta;
      if (Math.abs(turn) < 40) return;
      const next = this.pages.current + Math.sign(turn);
      turn = 0;
      turned = now;
      if (next >= 0 && next < this.pages.pages.length) this.pages.goTo(next);
    }, { passive: false });
    // Two-finger pinch with Pointer Events.
    const touches = new Map();
    let distance = 0;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    this.viewport.addEventListener('pointerdown', (event) => {
      if (event.pointerType !== 'touch' || !this.acceptsInput) return;
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2) distance = spread();
    });
    this.viewport.addEventListener('pointermove', (event) => {
      if (!touches.has(event.pointerId)) return;
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2 && distance > 0) {
        const now = spread();
        if (Math.abs(now / distance - 1) > 0.04) {
          const [a, b] = [...touches.values()];
          schedule(now / distance, local((a.x + b.x) / 2, (a.y + b.y) / 2));
          distance = now;
        }
      }
    });
    const up = (event) => {
      touches.delete(event.pointerId);
      if (touches.size < 2) distance = 0;
    };
    this.viewport.addEventListener('pointerup', up);
    this.viewport.addEventListener('pointercancel', up);
  }

  wireKeys() {
    document.addEventListener('keydown', (event) => {
      if (document.querySelector('dialog[open]')) return;
      const target = event.target;
      const typing = target.matches?.('input, textarea, select, [contenteditable]');
      const navigation = ['+', '=', '-', '0'].includes(event.key) ? event.ctrlKey || event.metaKey
        : ['PageDown', 'PageUp', 'ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'Home', 'End', ' '].includes(event.key);
      const onDocument = target === document.body || target === this.viewport || this.viewport.contains(target);
      if (!this.acceptsInput && navigation && !typing && onDocument) {
        event.preventDefault();
        return;
      }
      if ((event.ctrlKey || event.metaKey) && ['+', '=', '-', '0'].includes(event.key)) {
        event.preventDefault();
        if (event.key === '0') this.pages.relayout({ fit: this.pages.continuous && this.pages.vertical ? 'auto' : 'page' });
        else this.zoomBy(event.key === '-' ? 1 / 1.25 : 1.25);
      } else if ((event.ctrlKey || event.metaKey) && event.key === 'f') {
        event.preventDefault();
        this.search.open();
      } else if (!typing && onDocument && (event.key === 'Home' || event.key === 'End') && !event.ctrlKey
        && !event.metaKey && this.pages.pages.length) {
        // The first or last page, in every layout.
        event.preventDefault();
        this.pages.goTo(event.key === 'Home' ? 0 : this.pages.pages.length - 1);
      } else if (!typing && (event.key === 'PageDown' || event.key === 'PageUp') && !this.pages.continuous) {
        event.preventDefault();
        this.pages.goTo(this.pages.current + (event.key === 'PageDown' ? 1 : -1));
      } else if (!typing && !this.pages.vertical && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')
        && target === this.viewport) {
        event.preventDefault();
        this.pages.goTo(this.pages.current + (event.key === 'ArrowRight' ? 1 : -1));
      }
    });
  }

  /**
   * signo createViewerRect → viewerRectConfirmed / viewerRectCancelled → createNewSignatureField.
   * Create and Cancel tell the host (POST /api/viewer-rects/ID, page from 0). The host's answer
   * false keeps the rectangle shown; true hides it. The viewer then makes a signature field
   * `SignatureN` there — as it always did — unless the embedding page's handler decided (answered
   * true itself): the rectangle is then the host's to use.
   */
  async newSignatureField(opened = null) {
    // The session gives the rectangle its id (and refuses one while signing or taking notes);
    // `opened` is the id of a rectangle already open, drawn again after a reload.
    let id = opened;
    if (id === null) {
      try {
        const answer = await post('/api/viewer-rects');
        id = answer?.id;
        this.search.show(answer?.mode);  // the session ended any search shown
      } catch (error) {
        this.workflow.showError(error, 'A signature field cannot be placed now');
        return;
      }
    }
    const index = this.pages.current;
    const element = this.pages.elements[index];
    const zoom = this.pages.zoom;
    const w = Math.min(200 * zoom, element.clientWidth * 0.8);
    const hgt = Math.min(70 * zoom, element.clientHeight * 0.5);
    const box = { x: (element.clientWidth - w) / 2, y: (element.clientHeight - hgt) / 2, w, h: hgt };
    let hostDecided = false;
    const result = await editRectangle(this.pages, index, pdfRect(this.pages.matrix(index), box), {
      label: 'New signature field', confirmLabel: 'Create', text: 'New signature field',
      confirm: async ({ page, rect }) => {
        try {
          const answer = await post('/api/viewer-rects/' + id, { confirmed: true, page, rect });
          hostDecided = this.embed.takeRectAnswer(id);
          return answer?.hide !== false;
        } catch (error) {
          this.workflow.showError(error, 'The signature field was not created');
          return false;
        }
      },
    });
    if (!result) {
      post('/api/viewer-rects/' + id, { confirmed: false }).catch((error) => console.warn(error));
      return;
    }
    if (hostDecided) return;
    const taken = new Set(this.fields.fields.keys());
    let n = 1;
    while (taken.has(`Signature${n}`)) n += 1;
    try {
      await post('/api/signature-fields', { name: `Signature${n}`, page: result.page, rect: result.rect });
      announce(`Signature field Signature${n} created`);
      this.toolbar.setSaved(false);
      await this.reloadDocument();
    } catch (error) {
      this.workflow.showError(error, 'The signature field was not created');
    }
  }

  choosePhoto(name) {
    this.photoInput.dataset.field = name;
    this.photoInput.value = '';
    this.photoInput.click();
  }

  async uploadPhoto() {
    const file = this.photoInput.files[0];
    const name = this.photoInput.dataset.field;
    if (!file || !name) return;
    announce('Placing the photo…', { sticky: true, busy: true });
    try {
      await post('/api/photo/' + encodeURIComponent(name), file);
      this.fields.placedPhotos.add(name);
      announce('Photo placed');
      await this.reloadDocument();
    } catch (error) {
      announce('');
      this.workflow.showError(error, 'The photo could not be placed');
    }
  }
}

/** `color` ("#rrggbb") at opacity `alpha`, or null. */
function translucent(color, alpha) {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(typeof color === 'string' ? color : '');
  return match ? `rgba(${match.slice(1).map((hex) => parseInt(hex, 16)).join(', ')}, ${alpha})` : null;
}

const app = new App();
window.autograph = app;
app.start();
