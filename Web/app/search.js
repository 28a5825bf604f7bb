// Text search (signo search / scrollToSearchResult / finishTextSearch): highlight boxes from the
// result quads, next / previous with the current hit in the highlight colour, clear.
import { get } from './api.js';
import { announce, h } from './dialogs.js';
import { button } from './icons.js';

export class Search {
  constructor(app, bar) {
    this.app = app;
    this.bar = bar;
    this.results = [];
    this.index = -1;
    this.marks = [];
    this.input = h('input', { type: 'search', id: 'search-input', placeholder: 'Search', 'aria-label': 'Search text', enterkeyhint: 'search' });
    this.count = h('span', { className: 'search-count', id: 'search-count', 'aria-live': 'polite' });
    this.caseBox = h('input', { type: 'checkbox', id: 'search-case' });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        if (this.query === this.input.value && this.results.length) this.step(event.shiftKey ? -1 : 1);
        else this.run();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.close();
      }
    });
    bar.append(
      this.input,
      h('label', { className: 'check' }, this.caseBox, h('span', { textContent: 'Aa', title: 'Match case' })),
      button('prev', 'Previous result', () => this.step(-1), { id: 'search-prev' }),
      button('next', 'Next result', () => this.step(1), { id: 'search-next' }),
      this.count,
      button('close', 'Close search', () => this.close(), { id: 'search-close' }),
    );
  }

  open() {
    this.bar.hidden = false;
    this.input.focus();
    this.input.select();
  }

  close() {
    this.clear();
    this.bar.hidden = true;
    this.app.viewport.focus({ preventScroll: true });
  }

  /** finishTextSearch: removes the highlights. */
  clear() {
    for (const mark of this.marks) mark.remove();
    this.marks = [];
    this.results = [];
    this.index = -1;
    this.query = null;
    this.count.textContent = '';
  }

  /** Searches for `query` as the host asks (embed.js): the bar shows it; resolves with the number of results. */
  async find(query, { caseSensitive = false } = {}) {
    this.bar.hidden = false;
    this.input.value = query;
    this.caseBox.checked = caseSensitive;
    await this.run({ quiet: true });
    return this.results.length;
  }

  async run({ quiet = false } = {}) {
    const q = this.input.value;
    this.clear();
    if (!q) return;
    this.query = q;
    try {
      this.results = (await get('/api/search', { q, caseSensitive: this.caseBox.checked ? 1 : 0, wholeWord: 0 })) || [];
    } catch (error) {
      if (quiet) throw error;
      this.app.workflow.showError(error, 'Search failed');
      return;
    }
    this.results.forEach((result, i) => {
      result.marks = (result.quads || []).map((quad) => {
        const mark = h('div', { className: 'hit', 'data-hit': i });
        this.app.pages.anchor(mark, result.page, quad);
        this.marks.push(mark);
        return mark;
      });
    });
    if (!this.results.length) {
      this.count.textContent = 'No results';
      announce(`No results for “${q}”`);
      return;
    }
    this.step(1);
  }

  /** scrollToSearchResult: the next (1) or previous (-1) result. */
  step(direction) {
    if (!this.results.length) return;
    this.show((this.index + direction + this.results.length) % this.results.length);
  }

  /** signo scrollToSearchResult:withHighlightColor: result `index` (from 0) as the current one, in `color` ("#rrggbb") if given. */
  show(index, color = null) {
    this.results[this.index]?.marks.forEach((m) => {
      m.classList.remove('current');
      m.style.removeProperty('background-color');
    });
    this.index = index;
    const result = this.results[this.index];
    // The CSSOM, not a style attribute: the page's Content-Security-Policy refuses those.
    result.marks.forEach((m) => {
      m.classList.add('current');
      if (color) m.style.setProperty('background-color', color);
    });
    this.count.textContent = `${this.index + 1} / ${this.results.length}`;
    const quad = result.quads?.[0];
    this.app.pages.goTo(result.page, quad ? quadRect(quad) : null);
  }
}

function quadRect(q) {
  const xs = q.filter((_, i) => i % 2 === 0);
  const ys = q.filter((_, i) => i % 2 === 1);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
