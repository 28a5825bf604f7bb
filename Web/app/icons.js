// Inline SVG icons (24 × 24, stroked with currentColor).
const paths = {
  back: 'M15 5l-7 7 7 7',
  sign: 'M3 17c3-6 5-9 7-9s-1 9 1 9 3-5 5-5 1 4 3 4M3 21h18',
  fields: 'M4 5h16v5H4zM4 14h16v5H4zM7 17h6',
  save: 'M5 3h11l3 3v15H5zM8 3v6h8V3M8 21v-7h8v7',
  accept: 'M4 12l5 5L20 6',
  refuse: 'M6 6l12 12M18 6L6 18',
  search: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L21 21',
  notes: 'M4 20l4-1L19 8l-3-3L5 16zM14 7l3 3',
  zoomIn: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L21 21M7.5 10.5h6M10.5 7.5v6',
  zoomOut: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L21 21M7.5 10.5h6',
  fit: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  sidebar: 'M4 4h16v16H4zM9 4v16M5.5 7.5h2M5.5 10.5h2M5.5 13.5h2',
  fitWidth: 'M3 5v14M21 5v14M7 12h10M10 9l-3 3 3 3M14 9l3 3-3 3',
  prev: 'M6 15l6-6 6 6',
  next: 'M6 9l6 6 6-6',
  close: 'M6 6l12 12M18 6L6 18',
  undo: 'M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3',
  redo: 'M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3',
  rect: 'M4 6h16v12H4zM2 4l4 4M22 20l-4-4',
  signatures: 'M4 4h16v16H4zM7 15c2-4 3-6 4-6s0 6 1 6 2-3 3-3 1 2 2 2',
  camera: 'M4 8h4l2-3h4l2 3h4v11H4zM12 10a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
  plus: 'M12 5v14M5 12h14',
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM8.5 12l2.5 2.5 4.5-5',
};

/** An `<svg>` element for icon `name` (decorative: the button carries the label). */
export function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', paths[name] || '');
  svg.append(path);
  return svg;
}

/** A button with an icon and an accessible label (shown as text when `text` is set). */
export function button(name, label, onClick, { text = false, id } = {}) {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'icon-button' + (text ? ' with-text' : '');
  if (id) element.id = id;
  element.setAttribute('aria-label', label);
  element.title = label;
  element.append(icon(name));
  if (text) {
    const span = document.createElement('span');
    span.textContent = label;
    element.append(span);
  }
  element.addEventListener('click', onClick);
  return element;
}
