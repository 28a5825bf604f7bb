// A movable, resizable rectangle over a page with confirm / cancel (WYSIWYS signature positioning,
// signo createViewerRect). Mouse, touch and pen through Pointer Events; a click (or tap) on a page
// puts it there, centred on the point; dragged over another page, it goes onto that page; it stays
// inside the page it is on. Arrows move it, Shift+arrows resize it, Enter confirms, Escape cancels. With `image`, the box shows what will be signed: the
// server draws it at the box's size (in points), again after each resize or zoom.
//
// Dragging stays in the browser (it must follow the pointer every frame); what it ends in goes to
// the session, which checks it: the position (POST /api/position) or the rectangle's Create and
// Cancel (POST /api/viewer-rects/ID, the rectangle the session opened).
import { h } from './dialogs.js';
import { viewBox, pdfRect } from './geometry.js';

const MIN = 16;
// The sides and pixels GET /api/appearance.png draws (docs/web-api.md).
const SIDES = [1, 2000];
const MAX_PIXELS = 4e6;

/**
 * Shows the box on page `index` at PDF rectangle `rect`; resolves with {page, rect} (PDF user space,
 * of the page the box is on then) on confirm, null on cancel. `image(width, height, scale)`, when given, is the URL of the picture
 * the box shows at `width` × `height` points, `scale` pixels a point (`text` shows until it loads).
 * `confirm({page, rect})`, when given, is asked first (it may be async): false keeps the box shown
 * (signo's viewerRectConfirmed answering NO).
 */
export function editRectangle(pages, index, rect, { label = 'Signature position', confirmLabel = 'Confirm', text = '', image = null, confirm: ask } = {}) {
  return new Promise((resolve) => {
    const corners = ['nw', 'ne', 'sw', 'se'].map((corner) =>
      h('div', { className: 'handle ' + corner, 'data-corner': corner, 'aria-hidden': 'true' }));
    // Decorative: the box's label names it.
    const picture = image && h('img', { className: 'edit-box-image', id: 'edit-box-image', alt: '', draggable: 'false' });
    const box = h('div', {
      className: 'edit-box', id: 'edit-box', tabindex: '0', role: 'group',
      'aria-label': `${label}: drag to move, drag a corner to resize; arrow keys move, Shift+arrow keys resize, Enter confirms, Escape cancels`,
    }, h('span', { className: 'edit-box-text', textContent: text }), picture, corners);
    let timer = 0;
    let finished = false;
    const done = (value) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      box.remove();
      bar.remove();
      document.removeEventListener('keydown', onKey, true);
      pages.viewport.removeEventListener('click', onPageClick, true);
      resolve(value);
    };
    let asking = false;
    const confirm = async () => {
      if (asking) return;
      const result = { page: index, rect: box.pdfRect.map((v) => Math.round(v * 100) / 100) };
      if (ask) {
        asking = true;
        confirmButton.disabled = true;
        const hide = await ask(result);
        asking = false;
        confirmButton.disabled = false;
        if (hide === false) return;
      }
      done(result);
    };
    const bar = h('div', { className: 'floating-bar', role: 'toolbar', 'aria-label': label },
      h('span', { textContent: label }),
      h('button', { type: 'button', id: 'box-cancel', textContent: 'Cancel', onclick: () => { if (!asking) done(null); } }),
      h('button', { type: 'button', id: 'box-confirm', className: 'primary', textContent: confirmLabel, onclick: () => confirm() }));
    const confirmButton = bar.querySelector('#box-confirm');
    // Beside the dialogs, in a landmark (axe-core's region rule).
    (document.getElementById('dialogs') || document.body).append(bar);
    pages.anchor(box, index, rect);
    pages.goTo(index, rect);

    const current = () => viewBox(pages.matrix(index), box.pdfRect);
    // The picture at the box's size in points (upright, as on screen) and the screen's pixels a point.
    const refresh = () => {
      const m = pages.matrix(index);
      const zoom = Math.hypot(m[0], m[1]) || 1;
      const b = current();
      const side = (v) => Math.round(Math.min(SIDES[1], Math.max(SIDES[0], v / zoom)) * 100) / 100;
      const width = side(b.w);
      const height = side(b.h);
      const scale = Math.min(8, zoom * (window.devicePixelRatio || 1), Math.sqrt(MAX_PIXELS / (width * height)));
      const source = image(width, height, Math.max(0.1, Math.floor(scale * 100) / 100));
      if (picture.getAttribute('src') !== source) picture.src = source;
    };
    if (picture) {
      picture.addEventListener('load', () => box.classList.add('has-image'));
      picture.addEventListener('error', () => box.classList.remove('has-image'));
      // Every move, resize (pointer or keyboard) and zoom places the box: asked once it rests.
      box.addEventListener('placed', () => { clearTimeout(timer); timer = setTimeout(refresh, 250); });
      refresh();
    }
    // The box is clamped to the page it is on: whole, never past an edge.
    const set = (b) => {
      const page = pages.elements[index];
      const width = page.clientWidth;
      const height = page.clientHeight;
      b.w = Math.max(MIN, Math.min(b.w, width));
      b.h = Math.max(MIN, Math.min(b.h, height));
      b.x = Math.max(0, Math.min(b.x, width - b.w));
      b.y = Math.max(0, Math.min(b.y, height - b.h));
      pages.anchor(box, index, pdfRect(pages.matrix(index), b));
    };
    // The box's top left corner at client point (left, top), on the page under its centre (the page
    // it is on when its centre is on none): it goes onto that page, keeping its size on screen.
    const moveTo = (left, top) => {
      const { w, h } = current();
      const under = pages.hit(left + w / 2, top + h / 2);
      const moved = under && under.index !== index;
      if (moved) index = under.index;
      const frame = pages.elements[index].getBoundingClientRect();
      set({ x: left - frame.left, y: top - frame.top, w, h });
      // Moved into another page's overlay: the pointer it follows is captured again.
      if (moved && drag) {
        try { box.setPointerCapture(drag.id); } catch { /* the pointer is gone */ }
      }
    };
    // A click or a tap on a page (not on the box or its bar) puts the box there, centred on it.
    const onPageClick = (event) => {
      if (asking || box.contains(event.target) || bar.contains(event.target)) return;
      const hit = pages.hit(event.clientX, event.clientY);
      if (!hit) return;
      event.preventDefault();
      event.stopPropagation();
      const { w, h } = current();
      index = hit.index;
      const frame = pages.elements[index].getBoundingClientRect();
      set({ x: event.clientX - frame.left - w / 2, y: event.clientY - frame.top - h / 2, w, h });
      box.focus({ preventScroll: true });
    };
    pages.viewport.addEventListener('click', onPageClick, true);

    let drag = null;
    box.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      event.stopPropagation();
      box.focus();
      box.setPointerCapture(event.pointerId);
      const at = box.getBoundingClientRect();
      drag = {
        id: event.pointerId, corner: event.target.dataset.corner, x: event.clientX, y: event.clientY, start: current(),
        left: at.left, top: at.top,
      };
    });
    box.addEventListener('pointermove', (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      const s = drag.start;
      const b = { ...s };
      switch (drag.corner) {
        case 'nw': b.x = s.x + dx; b.y = s.y + dy; b.w = s.w - dx; b.h = s.h - dy; break;
        case 'ne': b.y = s.y + dy; b.w = s.w + dx; b.h = s.h - dy; break;
        case 'sw': b.x = s.x + dx; b.w = s.w - dx; b.h = s.h + dy; break;
        case 'se': b.w = s.w + dx; b.h = s.h + dy; break;
        default:
          // Moved: it follows the pointer, onto whichever page that takes it.
          moveTo(drag.left + dx, drag.top + dy);
          return;
      }
      if (b.w < MIN) { if (drag.corner === 'nw' || drag.corner === 'sw') b.x -= MIN - b.w; b.w = MIN; }
      if (b.h < MIN) { if (drag.corner === 'nw' || drag.corner === 'ne') b.y -= MIN - b.h; b.h = MIN; }
      set(b);
    });
    const end = () => { drag = null; };
    box.addEventListener('pointerup', end);
    box.addEventListener('pointercancel', end);

    const onKey = (event) => {
      if (document.querySelector('dialog[open]')) return;
      if (event.key === 'Escape') { event.preventDefault(); if (!asking) done(null); return; }
      if (document.activeElement !== box) return;
      if (event.key === 'Enter') { event.preventDefault(); confirm(); return; }
      const step = event.altKey ? 1 : 8;
      const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key];
      if (!delta) return;
      event.preventDefault();
      const b = current();
      if (event.shiftKey) { b.w += delta[0]; b.h += delta[1]; } else { b.x += delta[0]; b.y += delta[1]; }
      set(b);
    };
    document.addEventListener('keydown', onKey, true);
    requestAnimationFrame(() => box.focus({ preventScroll: true }));
  });
}
