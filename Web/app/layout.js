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
