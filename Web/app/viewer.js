// The web viewer: wires the page view, fields, toolbar, search, notes and the signing workflow to
// the API of `autograph serve` (docs/web-api.md).
import { early, events, get, post } from './api.js';
import { PageView } from './pages.js';
import { FieldLayer } from './fields.js';
import { Workflow } from './workflow.js';
import { Search } from './search.js';
import { Notes } from './notes.js';
import { ValidationPanel } from './validation.js';
import { buildToolbar } from './toolbar.js';
import { editRectangle } from './box.js';
import { announce, h } from './dialogs.js';
import { cssColor } from './capture.js';
import { pdfRect } from './geometry.js';

const EVENTS = [
  'documentDidLoad', 'fieldChanged', 'missingRequiredFormField', 'selectSignatureFormField',
  'didSelectSignatureFormField', 'signatureCaptureRequired', 'savedSignatureSelectionRequired',
  'signatureRequiresPositioning', 'onConfirmationRequired', 'willPrepareDocument',
  'documentPreparedForSignature', 'processDidFinish', 'documentCompleted', 'processDidFail', 'signingProcessConfirmed',
  'signingProcessCancelled', 'signingProcessFailed', 'signatureFieldCreated', 'photoFieldsDeclared', 'photoPlaced',
  'photoCaptureFailed', 'notesModeDidStart', 'notesModeDidFailToStart', 'notesModeDidFinish',
  'notesModeDidFinishWithFailure', 'pageChanged', 'documentSaved', 'phase',
];

/** What the tests and the host page can read: timings and the tiles requested. */
const metrics = (window.autographMetrics = { firstTile: null, firstPage: null, tiles: [] });

class App {
  constructor() {
    this.viewport = document.getElementById('viewport');
    this.state = {};
    this.pages = new PageView(this.viewport, document.getElementById('content'), {
      onPageChange: (index) => {
        this.toolbar?.setPage(index, this.pages.pages.length);
        // The session knows the page in view (a signature to position is proposed there).
        clearTimeout(this.pageReport);
        this.pageReport = setTimeout(() => post('/api/page', { page: index }).catch(() => {}), 250);
      },
      onFirstTile: (index) => {
        if (metrics.firstTile === null) metrics.firstTile = performance.now();
        if (index === 0 && metrics.firstPage === null) metrics.firstPage = performance.now();
        metrics.tiles.push(index);
      },
    });
    this.workflow = new Workflow(this);
    this.fields = new FieldLayer(this.pages, {
      onSign: (name) => this.workflow.sign(name),
      onPhoto: (name) => this.choosePhoto(name),
      onError: (error) => this.workflow.showError(error, 'The field was not saved'),
    });
    this.toolbar = buildToolbar(this, document.getElementById('toolbar'));
    this.validation = new ValidationPanel(this, this.toolbar.validationButton);
    this.search = new Search(this, document.getElementById('searchbar'));
    this.notes = new Notes(this, document.getElementById('notesbar'));
    this.photoInput = h('input', { type: 'file', accept: 'image/*', capture: 'environment', id: 'photo-input', className: 'visually-hidden', tabindex: '-1', 'aria-hidden': 'true' });
    this.photoInput.addEventListener('change', () => this.uploadPhoto());
    document.body.append(this.photoInput);
    this.wireZoom();
    this.wireKeys();
  }

  async start() {
    const state = early('state', '/api/state');
    const pages = early('pages', '/api/pages');
    const fields = early('fields', '/api/fields').catch(() => []);
    const opened = new Promise((resolve) => {
      this.events = events(EVENTS);
      this.events.addEventListener('connection', () => {
        if (this.events.source.readyState === EventSource.OPEN) resolve();
        document.body.dataset.connected = this.events.source.readyState === EventSource.OPEN ? '1' : '';
      });
    });
    const handlers = { ...this.workflow.handlers(), ...this.notes.handlers() };
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
      performance.mark('autograph:state');
      await this.pages.setPages(await pages, { continuous: this.continuous, vertical: this.vertical, spreads: this.spreads, cover: this.cover });
      this.toolbar.setPage(0, this.pages.pages.length);
      this.fields.set(await fields);
    } catch (error) {
      document.body.dataset.error = error.code || 'error';
      await this.workflow.showError(error, error.status === 403 ? 'Access refused' : 'The document could not be opened');
      return;
    }
    await opened;
    // After the first tiles: validating hashes the whole file on the server.
    this.validation.refresh();
    document.body.dataset.ready = '1';
    // Whatever step the session waits on gets its dialog back (a reload is never a dead end).
    this.workflow.resume(this.state);
  }

  applyState(state) {
    this.state = state || {};
    const viewer = this.state.viewer || {};
    this.continuous = viewer.continuousScrolling ?? true;
    this.vertical = viewer.verticalScrolling ?? true;
    this.spreads = viewer.twoPageSpreads === true;
    this.cover = viewer.firstPageAlone !== false;
    const toolbar = document.getElementById('toolbar');
    toolbar.hidden = viewer.showsToolbar === false || viewer.showToolbar === false;
    document.documentElement.style.setProperty('--toolbar-height', `${Math.max(36, viewer.toolbarHeight || 50)}px`);
    document.documentElement.style.setProperty('--page-background', cssColor(viewer.backgroundColor, '#e6e6e6'));
    this.toolbar.showPageNumber(viewer.showsPageNumber ?? viewer.showPageNumber ?? true);
    const locked = Boolean(this.state.readOnly) || this.state.phase === 'finished';
    this.toolbar.setReadOnly(locked);
    this.fields.readOnly = locked;
    this.fields.photoFields = new Set(this.state.photoFields || []);
    this.viewport.classList.toggle('no-input', viewer.acceptsInput === false);
    this.workflow.setPhase(this.state.phase || 'editing');
    if (viewer.allowsRotation === false && screen.orientation?.lock) {
      screen.orientation.lock(screen.orientation.type).catch(() => {});
    }
  }

  /** The document changed (signed, notes, photo): new tiles and field values. */
  async reloadDocument() {
    this.pages.refreshTiles();
    this.validation.refresh();
    try {
      this.applyState(await get('/api/state'));
      this.fields.set((await get('/api/fields')) || []);
    } catch (error) {
      console.warn(error);
    }
  }

  /** Another document was opened: everything again. */
  async loadDocument() {
    this.applyState(await get('/api/state'));
    await this.pages.setPages(await get('/api/pages'), { continuous: this.continuous, vertical: this.vertical, spreads: this.spreads, cover: this.cover });
    this.pages.refreshTiles();
    this.fields.set((await get('/api/fields')) || []);
    this.toolbar.setPage(0, this.pages.pages.length);
    this.validation.showCurrent();
    this.validation.refresh();
  }

  back() {
    window.dispatchEvent(new CustomEvent('autograph:back'));
    if (history.length > 1) history.back();
  }

  async save() {
    try {
      await post('/api/save');
      announce('Saved');
    } catch (error) {
      this.workflow.showError(error, 'The document was not saved');
    }
  }

  zoomBy(factor) {
    const zoom = Math.max(0.1, Math.min(8, this.pages.zoom * factor));
    if (Math.abs(zoom - this.pages.zoom) > 1e-3) this.pages.relayout({ fit: 'zoom', zoom });
  }

  fitToggle() {
    const fit = this.pages.fit === 'width' ? 'page' : 'width';
    this.pages.relayout({ fit });
    announce(fit === 'width' ? 'Fit width' : 'Fit page');
  }

  wireZoom() {
    let factor = 1;
    let pending = false;
    const schedule = (f) => {
      factor *= f;
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        const f = factor;
        factor = 1;
        this.zoomBy(f);
      });
    };
    this.viewport.addEventListener('wheel', (event) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      schedule(Math.exp(-event.deltaY * 0.0025));
    }, { passive: false });
    // Two-finger pinch with Pointer Events.
    const touches = new Map();
    let distance = 0;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    this.viewport.addEventListener('pointerdown', (event) => {
      if (event.pointerType !== 'touch') return;
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2) distance = spread();
    });
    this.viewport.addEventListener('pointermove', (event) => {
      if (!touches.has(event.pointerId)) return;
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2 && distance > 0) {
        const now = spread();
        if (Math.abs(now / distance - 1) > 0.04) {
          schedule(now / distance);
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
      if ((event.ctrlKey || event.metaKey) && ['+', '=', '-', '0'].includes(event.key)) {
        event.preventDefault();
        if (event.key === '0') this.pages.relayout({ fit: 'width' });
        else this.zoomBy(event.key === '-' ? 1 / 1.25 : 1.25);
      } else if ((event.ctrlKey || event.metaKey) && event.key === 'f') {
        event.preventDefault();
        this.search.open();
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

  /** signo createViewerRect → createNewSignatureField. */
  async newSignatureField() {
    const index = this.pages.current;
    const element = this.pages.elements[index];
    const zoom = this.pages.zoom;
    const w = Math.min(200 * zoom, element.clientWidth * 0.8);
    const hgt = Math.min(70 * zoom, element.clientHeight * 0.5);
    const box = { x: (element.clientWidth - w) / 2, y: (element.clientHeight - hgt) / 2, w, h: hgt };
    const result = await editRectangle(this.pages, index, pdfRect(this.pages.matrix(index), box), {
      label: 'New signature field', confirmLabel: 'Create', text: 'New signature field',
    });
    if (!result) return;
    const taken = new Set(this.fields.fields.keys());
    let n = 1;
    while (taken.has(`Signature${n}`)) n += 1;
    try {
      await post('/api/signature-fields', { name: `Signature${n}`, page: result.page, rect: result.rect });
      announce(`Signature field Signature${n} created`);
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

const app = new App();
window.autograph = app;
app.start();
