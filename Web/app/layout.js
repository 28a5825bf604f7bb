// The page layout, computed by PDFViewer in Swift (`GET /api/layout`), so the browser and a native
// viewer place pages the same way.
import { ApiError, get } from './api.js';

/**
 * The layout for a viewport of `width` × `height` CSS pixels: {contentWidth, contentHeight, zoom,
 * pages: [{index, frame: [x, y, w, h], pdfToView}]}, with each page's pdfToView made relative to
 * its own frame (the server's maps to content coordinates).
 */
export async function computeLayout(pages, options) {
  const layout = (await early(options)) || (await get('/api/layout' + '?' + query(options)));
  // A long document comes in ranges of pages (the server describes at most a few thousand an answer).
  const total = layout.pageCount ?? layout.pages.length;
  const ranges = [];
  for (let first = layout.pages.length; first < total; first += layout.pages.length || total) ranges.push(first);
  const rest = await Promise.all(ranges.map((first) => get('/api/layout' + '?' + query(options) + '&first=' + first)));
  const seen = new Set(layout.spreads.map((spread) => spread.index));
  for (const part of rest) {
    layout.pages.push(...part.pages);
    for (const spread of part.spreads) {
      if (!seen.has(spread.index)) layout.spreads.push(spread);
      seen.add(spread.index);
    }
  }
  for (const page of layout.pages) {
    const [a, b, c, d, e, f] = page.pdfToView;
    page.pdfToView = [a, b, c, d, e - page.frame[0], f - page.frame[1]];
  }
  return layout;
}

function query(options) {
  return window.autographBoot.layoutQuery(options);
}

/** The layout the boot script (index.html) asked for, when it asked for exactly this one (used once). */
async function early(options) {
  const started = window.autographBoot && window.autographBoot.layout;
  if (!started || started.query !== query(options)) return null;
  delete window.autographBoot.layout;
  const response = await started.response.catch(() => null);
  if (!response) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
