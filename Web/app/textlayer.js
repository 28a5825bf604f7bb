// The text layer: each page's words (`GET /api/pages/N/text`, read by the server from the page's
// content) as transparent text laid exactly over the tile, so that the browser can select, copy and
// find it and a screen reader reads the page. Each word is a span stretched to its quad, one line
// of the page after another (a <br> between lines, so that a copy keeps them apart).
import { call } from './api.js';
import { apply } from './geometry.js';

/** Widths of texts set at 100 px, measured once: a word's width at any size is proportional. */
const measure = (() => {
  const context = document.createElement('canvas').getContext('2d');
  const cache = new Map();
  return (text) => {
    let width = cache.get(text);
    if (width === undefined) {
      context.font = '100px sans-serif';
      width = context.measureText(text).width || 1;
      if (cache.size > 50000) cache.clear();
      cache.set(text, width);
    }
    return width;
  };
})();

export class TextLayer {
  /** The layer of one page's `element`, kept between the tile and the overlay. */
  constructor(element) {
    this.element = element;
    this.layer = document.createElement('div');
    this.layer.className = 'textlayer';
    element.insertBefore(this.layer, element.lastChild);
    this.key = null;
    this.words = [];
  }

  /**
   * Loads the text of page `index` for `key` (the document and its revision) unless it is loaded
   * or loading; places it with the page's matrix of the moment it arrives. A page the server
   * cannot read in time simply has no text layer.
   */
  async load(index, key) {
    if (this.key === key) return;
    this.key = key;
    let answer;
    try {
      answer = await call('GET', `/api/pages/${index}/text`);
    } catch {
      if (this.key === key) this.key = null;
      return;
    }
    if (this.key !== key) return;
    this.build(answer.lines || []);
    this.place(this.element.pdfToView);
  }

  build(lines) {
    const fragment = document.createDocumentFragment();
    this.words = [];
    lines.forEach((line, lineIndex) => {
      if (lineIndex > 0) {
        const br = document.createElement('br');
        br.setAttribute('role', 'presentation');
        fragment.append(br);
      }
      line.words.forEach((word, wordIndex) => {
        if (!word.quads?.length) return;
        const span = document.createElement('span');
        const last = wordIndex === line.words.length - 1;
        span.textContent = last ? word.text : word.text + ' ';
        fragment.append(span);
        this.words.push({ span, text: word.text, first: word.quads[0], final: word.quads[word.quads.length - 1] });
      });
    });
    this.layer.replaceChildren(fragment);
  }

  /** Lays each word over its quad under `matrix` (after a zoom or a new layout). */
  place(matrix) {
    if (!matrix) return;
    for (const { span, text, first, final } of this.words) {
      // Lower left and upper left of the first quad, lower right of the last (counter-clockwise
      // from the lower left), in the page's box.
      const [x0, y0] = apply(matrix, first[0], first[1]);
      const [x3, y3] = apply(matrix, first[6], first[7]);
      const [x1, y1] = apply(matrix, final[2], final[3]);
      const width = Math.hypot(x1 - x0, y1 - y0);
      const height = Math.hypot(x3 - x0, y3 - y0);
      if (!(width > 0.5 && height > 0.5)) {
        span.style.display = 'none';
        continue;
      }
      const angle = Math.atan2(y1 - y0, x1 - x0);
      const stretch = width / ((measure(text) * height) / 100);
      span.style.display = '';
      span.style.left = x3 + 'px';
      span.style.top = y3 + 'px';
      span.style.fontSize = height + 'px';
      span.style.transform = `rotate(${angle}rad) scaleX(${stretch})`;
    }
  }

  /** Forgets the text (the page left the view, or the document changed). */
  clear() {
    this.key = null;
    this.words = [];
    this.layer.replaceChildren();
  }
}
