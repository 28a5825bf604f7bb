// The page layout: `GET /api/layout` (computed by PDFViewer in Swift); until the server answers it,
// a small client-side fallback (one row or column of pages, no spreads) from `GET /api/pages`.
import { get } from './api.js';
import { pageMatrix } from './geometry.js';

let serverLayout = true;

/**
 * The layout for a viewport of `width` × `height` CSS pixels: {contentWidth, contentHeight, zoom,
 * pages: [{index, frame: [x, y, w, h], pdfToView}]}.
 */
export async function computeLayout(pages, { width, height, continuous, vertical, fit, zoom, spacing }) {
  if (serverLayout) {
    try {
      const layout = await get('/api/layout', {
        width: Math.round(width), height: Math.round(height), continuous: continuous ? 1 : 0,
        vertical: vertical ? 1 : 0, spreads: 0, cover: 0, spacing, fit, zoom,
      });
      if (layout && Array.isArray(layout.pages)) return layout;
    } catch (error) {
      if (error.status !== 501 && error.status !== 404) console.warn('layout', error);
    }
    serverLayout = false;
  }
  return fallbackLayout(pages, { width, height, vertical, fit, zoom, spacing });
}

// --- Fallback (drop when /api/layout is wired) ---
function fallbackLayout(pages, { width, height, vertical, fit, zoom, spacing }) {
  const maxW = Math.max(1, ...pages.map((p) => p.width));
  const maxH = Math.max(1, ...pages.map((p) => p.height));
  const fitWidth = (width - 2 * spacing) / maxW;
  const fitPage = Math.min(fitWidth, (height - 2 * spacing) / maxH);
  const z = fit === 'width' ? fitWidth : fit === 'page' ? fitPage : zoom;
  let x = spacing;
  let y = spacing;
  let across = 0;
  const frames = pages.map((page) => {
    const w = page.width * z;
    const h = page.height * z;
    const frame = vertical ? [0, y, w, h] : [x, 0, w, h];
    if (vertical) y += h + spacing; else x += w + spacing;
    across = Math.max(across, vertical ? w : h);
    return { index: page.index, frame, pdfToView: pageMatrix(page, z) };
  });
  const contentWidth = vertical ? Math.max(width, across + 2 * spacing) : x;
  const contentHeight = vertical ? y : Math.max(height, across + 2 * spacing);
  for (const page of frames) {
    // Centre across the scrolling direction.
    if (vertical) page.frame[0] = (contentWidth - page.frame[2]) / 2;
    else page.frame[1] = (contentHeight - page.frame[3]) / 2;
  }
  return { contentWidth, contentHeight, zoom: z, pages: frames };
}
