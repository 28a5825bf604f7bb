// The sidebar: the pages as thumbnails and the document's outline (its bookmarks), to move through
// a document. Thumbnails are small tiles (`GET /api/pages/N/tile`), loaded as they scroll into the
// sidebar; the outline is the server's reading of the document (`GET /api/outline`). By keyboard:
// the two tabs switch with the arrow keys, the thumbnails are one tab stop moved through with the
// arrow keys, Home and End; each bookmark is a button, its children shown by the toggle before it.
import { get, url } from './api.js';
import { h } from './dialogs.js';

const THUMB_WIDTH = 112;
/** The most thumbnails in the list at once: a longer document shows those around the current page. */
const WINDOW = 400;

export class Sidebar {
  constructor(app, element, toggleButton) {
    this.app = app;
    this.element = element;
    this.button = toggleButton;
    this.first = 0;
    this.outlineLoaded = false;
    this.pagesTab = h('button', {
      type: 'button', role: 'tab', id: 'sidebar-tab-pages', 'aria-controls': 'sidebar-pages', 'aria-selected': 'true',
      textContent: 'Pages', onclick: () => this.select('pages'),
    });
    this.outlineTab = h('button', {
      type: 'button', role: 'tab', id: 'sidebar-tab-outline', 'aria-controls': 'sidebar-outline', 'aria-selected': 'false',
      tabindex: '-1', textContent: 'Bookmarks', onclick: () => this.select('outline'),
    });
    const tabs = h('div', { role: 'tablist', className: 'sidebar-tabs', 'aria-label': 'Sidebar' }, this.pagesTab, this.outlineTab);
    tabs.addEventListener('keydown', (event) => {
      if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
      event.preventDefault();
      const next = this.selected === 'pages' ? 'outline' : 'pages';
      const target = event.key === 'Home' ? 'pages' : event.key === 'End' ? 'outline' : next;
      this.select(target);
      (target === 'pages' ? this.pagesTab : this.outlineTab).focus();
    });
    this.thumbs = h('ol', { className: 'thumbs', 'aria-label': 'Pages' });
    this.thumbs.addEventListener('keydown', (event) => this.thumbKey(event));
    this.pagesPanel = h('div', { role: 'tabpanel', id: 'sidebar-pages', 'aria-labelledby': 'sidebar-tab-pages', className: 'sidebar-panel' }, this.thumbs);
    this.outline = h('div', { className: 'outline' });
    this.outlinePanel = h('div', {
      role: 'tabpanel', id: 'sidebar-outline', 'aria-labelledby': 'sidebar-tab-outline', className: 'sidebar-panel', hidden: true,
    }, this.outline);
    element.replaceChildren(tabs, this.pagesPanel, this.outlinePanel);
    this.selected = 'pages';
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) this.loadThumb(entry.target);
      }
    }, { root: this.pagesPanel, rootMargin: '200px 0px' });
  }

  get open() { return !this.element.hidden; }

  toggle(open = !this.open) {
    this.element.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) {
      this.render();
      (this.selected === 'pages' ? this.pagesTab : this.outlineTab).focus();
    }
  }

  select(name) {
    this.selected = name;
    const pages = name === 'pages';
    this.pagesTab.setAttribute('aria-selected', String(pages));
    this.outlineTab.setAttribute('aria-selected', String(!pages));
    this.pagesTab.tabIndex = pages ? 0 : -1;
    this.outlineTab.tabIndex = pages ? -1 : 0;
    this.pagesPanel.hidden = !pages;
    this.outlinePanel.hidden = pages;
    if (!pages) this.loadOutline();
  }

  /** The document changed (opened, a new revision): what is shown is made again when next seen. */
  reset() {
    this.outlineLoaded = false;
    this.thumbs.replaceChildren();
    this.first = 0;
    if (this.open) this.render();
  }

  render() {
    if (this.selected === 'outline') this.loadOutline();
    this.renderThumbs();
  }

  /** Thumbnails of the pages (all, or a window of them around the current page). */
  renderThumbs() {
    const pages = this.app.pages.pages;
    const current = this.app.pages.current;
    const first = pages.length <= WINDOW ? 0 : Math.max(0, Math.min(pages.length - WINDOW, current - WINDOW / 2));
    if (this.thumbs.childElementCount && first === this.first) {
      this.setCurrent(current);
      return;
    }
    this.first = first;
    this.observer.disconnect();
    const items = pages.slice(first, first + WINDOW).map((page) => {
      const height = Math.round((THUMB_WIDTH * page.height) / page.width);
      const image = h('img', { alt: '', width: String(THUMB_WIDTH), height: String(height), draggable: 'false' });
      const button = h('button', {
        type: 'button', className: 'thumb', tabindex: '-1', 'data-page': page.index, 'aria-label': `Page ${page.index + 1}`,
        onclick: () => this.app.pages.goTo(page.index),
      }, image, h('span', { textContent: String(page.index + 1), 'aria-hidden': 'true' }));
      this.observer.observe(button);
      return h('li', {}, button);
    });
    this.thumbs.replaceChildren(...items);
    this.setCurrent(current);
  }

  loadThumb(button) {
    const index = Number(button.dataset.page);
    const page = this.app.pages.pages[index];
    const image = button.querySelector('img');
    if (!page || !image) return;
    const dpr = window.devicePixelRatio || 1;
    const scale = Math.max(0.05, Math.round(((THUMB_WIDTH * dpr) / page.width) * 100) / 100);
    const source = url(`/api/pages/${index}/tile`, { scale, v: `${this.app.pages.documentKey}.${this.app.pages.revision}` });
    if (image.getAttribute('src') !== source) image.src = source;
  }

  /** Marks page `index` as the one in view (and the thumbnails' tab stop). */
  setCurrent(index) {
    if (!this.open) return;
    if (index < this.first || index >= this.first + WINDOW) {
      this.renderThumbs();
      return;
    }
    for (const button of this.thumbs.querySelectorAll('.thumb')) {
      const here = Number(button.dataset.page) === index;
      button.tabIndex = here ? 0 : -1;
      if (here) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
    }
    const button = this.thumbs.querySelector(`.thumb[data-page="${index}"]`);
    if (button && !this.pagesPanel.hidden) button.scrollIntoView({ block: 'nearest' });
  }

  thumbKey(event) {
    const buttons = [...this.thumbs.querySelectorAll('.thumb')];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const target = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
    buttons[at].tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
  }

  async loadOutline() {
    if (this.outlineLoaded) return;
    this.outlineLoaded = true;
    this.outline.replaceChildren(h('p', { className: 'note', textContent: 'Reading the bookmarks…' }));
    let answer;
    try {
      answer = await get('/api/outline');
    } catch (error) {
      this.outlineLoaded = false;
      this.outline.replaceChildren(h('p', { className: 'note', textContent: `The bookmarks could not be read: ${error.message}` }));
      return;
    }
    const items = answer?.items || [];
    if (!items.length) {
      this.outline.replaceChildren(h('p', { className: 'note', textContent: 'This document has no bookmarks.' }));
      return;
    }
    this.outline.replaceChildren(this.outlineList(items, 1));
    if (answer.truncated) this.outline.append(h('p', { className: 'note', textContent: 'The document has more bookmarks than are shown.' }));
  }

  outlineList(items, level) {
    return h('ul', { className: 'outline-list' }, items.map((item) => {
      const go = h('button', {
        type: 'button', className: 'outline-item', textContent: item.title || '(untitled)', disabled: item.page === null,
        title: item.page === null ? 'This bookmark goes to no page of the document' : `Page ${item.page + 1}`,
        onclick: () => this.goTo(item),
      });
      if (!item.children?.length) return h('li', {}, h('span', { className: 'outline-spacer' }), go);
      const children = this.outlineList(item.children, level + 1);
      children.hidden = !item.open;
      const toggle = h('button', {
        type: 'button', className: 'outline-toggle', 'aria-expanded': String(!!item.open),
        'aria-label': `${item.open ? 'Hide' : 'Show'} the bookmarks under ${item.title || 'this bookmark'}`,
        textContent: item.open ? '▾' : '▸',
      });
      toggle.addEventListener('click', () => {
        const opened = children.hidden;
        children.hidden = !opened;
        toggle.setAttribute('aria-expanded', String(opened));
        toggle.textContent = opened ? '▾' : '▸';
        toggle.setAttribute('aria-label', `${opened ? 'Hide' : 'Show'} the bookmarks under ${item.title || 'this bookmark'}`);
      });
      return h('li', {}, toggle, go, children);
    }));
  }

  goTo(item) {
    if (item.page === null) return;
    if (item.top !== null) this.app.pages.goToTop(item.page, item.top);
    else this.app.pages.goTo(item.page);
  }
}
