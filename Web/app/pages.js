// The pages: placeholders laid out from the layout, tiles loaded only for the visible pages and
// their neighbours (IntersectionObserver), overlays anchored in PDF coordinates.
//
// Scrolling, zooming and pinching live here and only here: they must follow the finger every frame,
// which a request to the server cannot. Where pages go is PDFViewer's (`GET /api/layout`, with the
// zoom's bounds); what the viewer shows besides them is the session's mode (search.js, notes.js).
import { url } from './api.js';
import { computeLayout } from './layout.js';
import { viewBox } from './geometry.js';
import { TextLayer } from './textlayer.js';

const SPACING = 16;
const MAX_TILE_PIXELS = 16e6;
const TILE_RETRIES = 4;
/** The most the automatic fit enlarges (pdf.js's too): a page's width, but no larger than this. */
const AUTO_MAX_ZOOM = 1.25;

export class PageView {
  constructor(viewport, content, { onPageChange, onFirstTile, onZoomChange, onDocumentChange } = {}) {
    this.viewport = viewport;
    this.content = content;
    this.onPageChange = onPageChange || (() => {});
    this.onFirstTile = onFirstTile || (() => {});
    this.onZoomChange = onZoomChange || (() => {});
    this.onDocumentChange = onDocumentChange || (() => {});
    this.pages = [];
    this.elements = [];
    this.layout = null;
    this.zoom = 1;
    this.fit = 'width';
    this.continuous = true;
    this.vertical = true;
    this.revision = 0;
    /** The earlier revision drawn instead of the current document (a signed version), or null. */
    this.viewRevision = null;
    this.documentKey = '';
    this.current = 0;
    this.near = new Set();
    this.observer = null;
    this.scrollPending = false;
    viewport.addEventListener('scroll', () => this.scheduleScroll(), { passive: true });
    new ResizeObserver(() => { if (this.pages.length && this.fit !== 'zoom') this.relayout(); })
      .observe(viewport);
  }

  /** Builds the page placeholders for `pages` (from `GET /api/pages`). */
  async setPages(pages, { continuous, vertical, spreads = false, cover = true }) {
    this.pages = pages;
    this.documentKey = Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);
    this.continuous = continuous;
    this.vertical = vertical;
    this.spreads = spreads;
    this.cover = cover;
    this.fit = continuous && vertical ? 'auto' : 'page';
    this.viewport.classList.toggle('horizontal', !vertical);
    this.viewport.classList.toggle('paged', !continuous);
    this.content.replaceChildren();
    this.elements = pages.map((page) => {
      const element = document.createElement('section');
      element.className = 'page';
      element.dataset.index = page.index;
      element.setAttribute('aria-label', `Page ${page.index + 1} of ${pages.length}`);
      const image = document.createElement('img');
      image.className = 'tile';
      image.alt = '';
      image.decoding = 'async';
      image.draggable = false;
      image.addEventListener('load', () => {
        image.retries = 0;
        element.classList.add('loaded');
        this.onFirstTile(page.index, image);
      });
      image.addEventListener('error', () => this.retryTile(page.index, image));
      const overlay = document.createElement('div');
      overlay.className = 'overlay';
      element.append(image, overlay);
      element.text = new TextLayer(element);
      this.content.append(element);
      return element;
    });
    performance.mark('autograph:pages-built');
    await this.relayout();
    this.onDocumentChange();
  }

  /**
   * Lays the pages out again (viewport size, zoom or fit changed), keeping the current page in view.
   * `fit`: `width`, `page`, `zoom` (the zoom given) or `auto` — the width, at most AUTO_MAX_ZOOM, so a
   * wide screen shows a page at a readable size rather than twice it.
   */
  async relayout({ fit = this.fit, zoom = this.zoom, keep = true, focus = null } = {}) {
    const anchor = keep && this.layout ? this.anchorPoint(focus) : null;
    const rect = this.viewport.getBoundingClientRect();
    const options = {
      width: this.viewport.clientWidth || rect.width, height: this.viewport.clientHeight || rect.height,
      continuous: this.continuous, vertical: this.vertical, spreads: this.spreads, cover: this.cover,
      fit: fit === 'auto' ? 'width' : fit, zoom, spacing: SPACING,
    };
    let layout = await computeLayout(this.pages, options);
    if (fit === 'auto' && layout.zoom > AUTO_MAX_ZOOM) {
      layout = await computeLayout(this.pages, { ...options, fit: 'zoom', zoom: AUTO_MAX_ZOOM });
    }
    performance.mark('autograph:layout');
    this.layout = layout;
    this.fit = fit;
    this.zoom = layout.zoom;
    this.content.style.width = layout.contentWidth + 'px';
    this.content.style.height = layout.contentHeight + 'px';
    for (const info of layout.pages) {
      const element = this.elements[info.index];
      const [x, y, w, h] = info.frame;
      Object.assign(element.style, { left: x + 'px', top: y + 'px', width: w + 'px', height: h + 'px' });
      element.pdfToView = info.pdfToView;
      element.text.place(info.pdfToView);
      for (const child of element.querySelectorAll('.anchored')) place(child, info.pdfToView);
    }
    if (anchor) this.restoreAnchor(anchor);
    this.observe();
    // The observer reports after the next frame: ask for the tiles in view at once.
    for (const index of this.pagesInView()) this.near.add(index);
    for (const index of this.near) this.loadTile(index);
    this.updateCurrent();
    this.onZoomChange(this.zoom, this.fit);
    performance.mark('autograph:laid-out');
  }

  observe() {
    this.observer?.disconnect();
    this.near.clear();
    const margin = this.vertical ? '100% 0px 100% 0px' : '0px 100% 0px 100%';
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const index = Number(entry.target.dataset.index);
        if (entry.isIntersecting) {
          this.near.add(index);
          this.loadTile(index);
        } else {
          this.near.delete(index);
          this.unloadTile(index);
        }
      }
    }, { root: this.viewport, rootMargin: margin });
    for (const element of this.elements) this.observer.observe(element);
  }

  /** The pages the layout puts in the viewport or within one viewport of it (the observer's margin). */
  pagesInView() {
    const v = this.viewport;
    const axis = this.vertical ? 1 : 0;
    const start = this.vertical ? v.scrollTop : v.scrollLeft;
    const length = this.vertical ? v.clientHeight : v.clientWidth;
    return this.layout.pages
      .filter(({ frame }) => frame[axis] < start + 2 * length && frame[axis] + frame[axis + 2] > start - length)
      .map(({ index }) => index);
  }

  tileScale(index) {
    const page = this.pages[index];
    const dpr = window.devicePixelRatio || 1;
    let scale = this.zoom * dpr;
    const pixels = page.width * page.height * scale * scale;
    if (pixels > MAX_TILE_PIXELS) scale *= Math.sqrt(MAX_TILE_PIXELS / pixels);
    return Math.max(0.05, Math.round(scale * 100) / 100);
  }

  loadTile(index) {
    const image = this.elements[index].firstChild;
    // The document and its revision in the URL: tiles are cached for an hour.
    const query = { scale: this.tileScale(index), v: `${this.documentKey}.${this.revision}` };
    if (this.viewRevision !== null) query.revision = this.viewRevision;
    const source = url(`/api/pages/${index}/tile`, query);
    if (image.getAttribute('src') !== source) {
      image.retries = 0;
      image.src = source;
    }
    // The text layer is the current revision's: none over an earlier one.
    const text = this.elements[index].text;
    if (this.viewRevision === null) text.load(index, query.v);
    else text.clear();
  }

  /**
   * Asks again for a tile that failed: the server answers 503 (Retry-After) when every rendering
   * thread stayed busy too long, which an image cannot tell apart from other failures; a few tries,
   * further apart each time, while the page is still near and its tile unchanged.
   */
  retryTile(index, image) {
    const source = image.getAttribute('src');
    if (!source || (image.retries || 0) >= TILE_RETRIES) return;
    image.retries = (image.retries || 0) + 1;
    setTimeout(() => {
      if (image.getAttribute('src') !== source || !this.near.has(index)) return;
      image.removeAttribute('src');
      image.src = source;
    }, 2000 * image.retries);
  }

  unloadTile(index) {
    const element = this.elements[index];
    // Clearing the source cancels a pending request; the placeholder keeps the page's size.
    element.firstChild.removeAttribute('src');
    element.classList.remove('loaded');
    element.text.clear();
  }

  /** Draws the document as it was at `revision` (null: as it is now). */
  showRevision(revision) {
    this.viewRevision = revision;
    this.content.classList.toggle('earlier-revision', revision !== null);
    for (const index of this.near) this.loadTile(index);
  }

  /** Loads every near tile again (the document changed). */
  refreshTiles() {
    this.revision += 1;
    for (const index of this.near) this.loadTile(index);
    this.onDocumentChange();
  }

  overlay(index) { return this.elements[index].lastChild; }
  matrix(index) { return this.elements[index].pdfToView; }

  /** Puts `element` over page `index` at the PDF rectangle or quad `rect`, following zoom changes. */
  anchor(element, index, rect) {
    element.pdfRect = rect;
    element.classList.add('anchored');
    if (element.parentNode !== this.overlay(index)) this.overlay(index).append(element);
    place(element, this.matrix(index));
    return element;
  }

  scheduleScroll() {
    if (this.scrollPending) return;
    this.scrollPending = true;
    requestAnimationFrame(() => {
      this.scrollPending = false;
      this.updateCurrent();
    });
  }

  /** The page under the middle of the viewport. */
  pageAtCenter() {
    const v = this.viewport;
    const middle = this.vertical ? v.scrollTop + v.clientHeight / 2 : v.scrollLeft + v.clientWidth / 2;
    const axis = this.vertical ? 1 : 0;
    const frames = this.layout.pages;
    let low = 0;
    let high = frames.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (frames[mid].frame[axis] <= middle) low = mid; else high = mid - 1;
    }
    return frames[low] ? frames[low].index : 0;
  }

  updateCurrent() {
    if (!this.layout) return;
    const page = this.pageAtCenter();
    if (page !== this.current) {
      this.current = page;
      this.onPageChange(page);
    }
  }

  /**
   * The page point at `focus` ({x, y} from the viewport's top left; its centre by default): the
   * page under it (else the page at the centre) and the fractions of that page's frame.
   */
  anchorPoint(focus = null) {
    const v = this.viewport;
    const px = focus ? focus.x : v.clientWidth / 2;
    const py = focus ? focus.y : v.clientHeight / 2;
    const x = v.scrollLeft + px;
    const y = v.scrollTop + py;
    const under = this.layout.pages.find(({ frame: [fx, fy, fw, fh] }) => x >= fx && x <= fx + fw && y >= fy && y <= fy + fh);
    const index = under ? under.index : this.pageAtCenter();
    const frame = this.layout.pages.find((p) => p.index === index).frame;
    return { index, px, py, fx: (x - frame[0]) / frame[2], fy: (y - frame[1]) / frame[3] };
  }

  /** Scrolls so that the anchor's page point is back where it was on screen. */
  restoreAnchor({ index, px, py, fx, fy }) {
    const frame = this.layout.pages.find((p) => p.index === index).frame;
    const v = this.viewport;
    v.scrollLeft = frame[0] + fx * frame[2] - px;
    v.scrollTop = frame[1] + fy * frame[3] - py;
  }

  /** Scrolls to page `index` (0-based), or to a PDF rectangle on it. */
  goTo(index, rect, { smooth = false } = {}) {
    index = Math.max(0, Math.min(this.pages.length - 1, index));
    const frame = this.layout.pages.find((p) => p.index === index).frame;
    const v = this.viewport;
    let left = frame[0] - SPACING;
    let top = frame[1] - SPACING;
    if (rect) {
      const box = viewBox(this.matrix(index), rect);
      left = frame[0] + box.x + box.w / 2 - v.clientWidth / 2;
      top = frame[1] + box.y + box.h / 2 - v.clientHeight / 2;
    }
    if (!this.continuous || !this.vertical) left = rect ? left : frame[0] + frame[2] / 2 - v.clientWidth / 2;
    v.scrollTo({ left, top, behavior: smooth ? 'smooth' : 'auto' });
    this.current = index;
    this.onPageChange(index);
  }

  /** Scrolls page `index` so that the height `top` (PDF user space) is at the top of the view. */
  goToTop(index, top) {
    this.goTo(index);
    const matrix = this.matrix(index);
    if (!matrix || !this.vertical) return;
    const frame = this.layout.pages.find((p) => p.index === index).frame;
    const y = matrix[3] * top + matrix[5];
    this.viewport.scrollTo({ top: frame[1] + Math.max(0, Math.min(frame[3], y)) - SPACING / 2 });
  }

  /** The page and view point (in the page's box) of a client point, or null. */
  hit(clientX, clientY) {
    for (const index of this.near) {
      const r = this.elements[index].getBoundingClientRect();
      if (clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom) {
        return { index, x: clientX - r.left, y: clientY - r.top };
      }
    }
    return null;
  }
}

function place(element, matrix) {
  if (!matrix || !element.pdfRect) return;
  const box = viewBox(matrix, element.pdfRect);
  Object.assign(element.style, { left: box.x + 'px', top: box.y + 'px', width: box.w + 'px', height: box.h + 'px' });
  element.dispatchEvent(new CustomEvent('placed', { detail: box }));
}
