// Text search (signo search / scrollToSearchResult / finishTextSearch): highlight boxes from the
// result quads, next / previous with the current hit in the highlight colour, clear.
//
// The search shown is the session's (its viewer mode): the results, the current one and its colour
// come back in every answer and after a reload, and this file draws them. Each step is a request:
// it is a click, not a gesture, and the host's scrollToSearchResult and the bar then agree.
import { post } from './api.js';
import { announce, h } from './dialogs.js';
import { button } from './icons.js';

export class Search {
  constructor(app, bar) {
    this.app = app;
    this.bar = bar;
    // The session's search mode (ModeJSON: query, results, current, color) and the marks drawn for it.
    this.mode = null;
    this.marks = [];
    this.input = h('input', { type: 'search', id: 'search-input', placeholder: 'Search', 'aria-label': 'Search text', enterkeyhint: 'search' });
    this.count = h('span', { className: 'search-count', id: 'search-count', 'aria-live': 'polite' });
    this.caseBox = h('input', { type: 'checkbox', id: 'search-case' });
    this.wordBox = h('input', { type: 'checkbox', id: 'search-whole-word' });
    this.diacriticsBox = h('input', { type: 'checkbox', id: 'search-diacritics' });
    // Found as it is typed: a search a quarter of a second after the last key, one request at a time
    // (the session shows the last one asked).
    this.typing = null;
    this.input.addEventListener('input', () => {
      clearTimeout(this.typing);
      this.typing = setTimeout(() => this.runLatest(), 250);
    });
    for (const box of [this.caseBox, this.wordBox, this.diacriticsBox]) {
      box.addEventListener('change', () => { if (this.input.value) this.runLatest(); });
    }
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
      h('label', { className: 'check', title: 'Match case' }, this.caseBox, h('span', { textContent: 'Match case' })),
      h('label', { className: 'check', title: 'Whole words only' }, this.wordBox, h('span', { textContent: 'Whole word' })),
      h('label', { className: 'check', title: 'Accents must match (by default “resume” finds “Résumé”)' },
        this.diacriticsBox, h('span', { textContent: 'Match accents' })),
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

  /** The results shown (each {page, quads}). */
  get results() { return this.mode?.results || []; }

  get query() { return this.mode?.query ?? null; }

  async close() {
    this.clear();
    this.bar.hidden = true;
    this.app.viewport.focus({ preventScroll: true });
    await post('/api/search/finish').catch((error) => console.warn(error));
  }

  /** finishTextSearch: removes the highlights drawn here. */
  clear() {
    for (const mark of this.marks) mark.remove();
    this.marks = [];
    this.mode = null;
    this.count.textContent = '';
  }

  /** Searches for `query` as the host asks (embed.js): the bar shows it; resolves with the number of results. */
  async find(query, { caseSensitive = false, wholeWord = false, diacriticSensitive = false } = {}) {
    this.bar.hidden = false;
    this.input.value = query;
    this.caseBox.checked = caseSensitive;
    this.wordBox.checked = wholeWord;
    this.diacriticsBox.checked = diacriticSensitive;
    await this.run({ quiet: true });
    return this.results.length;
  }

  /** What a search depends on: the query and the three options. */
  key() {
    return [this.input.value, this.caseBox.checked, this.wordBox.checked, this.diacriticsBox.checked].join('\u0000');
  }

  async run({ quiet = false, fromTyping = false } = {}) {
    const q = this.input.value;
    clearTimeout(this.typing);
    this.lastRun = this.key();
    this.clear();
    if (!q) return;
    let answer;
    try {
      answer = await post('/api/search', {
        q, caseSensitive: this.caseBox.checked, wholeWord: this.wordBox.checked, diacriticSensitive: this.diacriticsBox.checked,
      });
    } catch (error) {
      if (quiet) throw error;
      // While typing, a refusal (a signature under way) is said in the bar, not in a dialog.
      if (fromTyping) {
        this.count.textContent = error.message;
        return;
      }
      this.app.workflow.showError(error, 'Search failed');
      return;
    }
    this.show(answer?.mode);
    if (!this.results.length) {
      announce(`No results for “${q}”`);
      return;
    }
    await this.step(1);
  }

  /** Runs the search for what the field holds now, after any search under way (typing, options). */
  async runLatest() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        if (this.key() === this.lastRun) continue;
        if (this.input.value) await this.run({ fromTyping: true });
        else {
          this.lastRun = this.key();
          this.clear();
          await post('/api/search/finish').catch((error) => console.warn(error));
        }
      } while (this.again);
    } finally {
      this.running = false;
    }
  }

  /** scrollToSearchResult: the next (1) or previous (-1) result. */
  async step(direction) {
    if (!this.results.length) return;
    await this.send({ direction });
  }

  /** signo scrollToSearchResult:withHighlightColor: result `index` (from 0) as the current one, in `color` ("#rrggbb") if given. */
  select(index, color = null) {
    return this.send(color ? { index, color } : { index }, true);
  }

  async send(body, quiet = false) {
    try {
      this.show((await post('/api/search/step', body))?.mode, { scroll: true });
    } catch (error) {
      if (quiet) throw error;
      this.app.workflow.showError(error, 'Search');
    }
  }

  /** Draws the session's search `mode`: every result's marks, the current one in its colour. */
  show(mode, { scroll = false } = {}) {
    if (mode?.name !== 'search') {
      if (this.mode) this.clear();
      return;
    }
    const same = this.mode && this.mode.query === mode.query && this.mode.results.length === mode.results.length;
    if (!same) {
      this.clear();
      mode.results.forEach((result, i) => {
        for (const quad of result.quads || []) {
          const mark = h('div', { className: 'hit', 'data-hit': i });
          this.app.pages.anchor(mark, result.page, quad);
          this.marks.push(mark);
        }
      });
      this.bar.hidden = false;
      if (document.activeElement !== this.input) this.input.value = mode.query;
    }
    this.mode = mode;
    for (const mark of this.marks) {
      const current = Number(mark.dataset.hit) === mode.current;
      mark.classList.toggle('current', current);
      // The CSSOM, not a style attribute: the page's Content-Security-Policy refuses those.
      if (current && mode.color) mark.style.setProperty('background-color', mode.color);
      else mark.style.removeProperty('background-color');
    }
    if (!mode.results.length) {
      this.count.textContent = 'No results';
      return;
    }
    if (mode.current === null || mode.current === undefined) {
      this.count.textContent = `${mode.results.length} results`;
      return;
    }
    this.count.textContent = `${mode.current + 1} / ${mode.results.length}`;
    const result = mode.results[mode.current];
    const quad = result.quads?.[0];
    if (scroll) this.app.pages.goTo(result.page, quad ? quadRect(quad) : null);
  }
}

function quadRect(q) {
  const xs = q.filter((_, i) => i % 2 === 0);
  const ys = q.filter((_, i) => i % 2 === 1);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
