// The handwritten signature capture dialog (signo STSignatureCaptureViewController): a canvas fed
// by Pointer Events (coalesced samples, pressure, timestamps); clear, cancel, confirm.
import { h, modal } from './dialogs.js';
import { signerNote } from './signer.js';

/** A CSS colour from the API's colour forms ("#rrggbb", [r, g, b] 0…1, {"rgb": …}, {"gray": …}). */
export function cssColor(color, fallback) {
  if (!color) return fallback;
  if (typeof color === 'string') return color;
  const values = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
  const list = Array.isArray(color) ? color : color.rgb ? values(color.rgb)
    : color.gray !== undefined ? values(color.gray) : color.cmyk ? values(color.cmyk) : null;
  if (!list) return fallback;
  const c = list.length === 1 ? [list[0], list[0], list[0]] : list.length === 4 ? cmyk(list) : list;
  return `rgb(${c.slice(0, 3).map((v) => Math.round(Number(v) * 255)).join(', ')})`;
}

function cmyk([c, m, y, k]) {
  return [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)];
}

/**
 * Opens the capture dialog; resolves with the strokes `[[{x, y, t, p}]]` (pad pixels, y down,
 * seconds, pressure 0…1), with `{name}` when the person typed their name instead (the keyboard and
 * screen-reader way to sign; not offered with `typing: false`), or null when cancelled. `error` (the
 * server's refusal of the last drawing, e.g. −132 too short) is shown in the dialog and announced.
 */
export function captureSignature(configuration = {}, { title = 'Sign here', error = null, typing = true, signer = null, fields = null } = {}) {
  const ink = cssColor(configuration.signatureColor, '#0d1a73');
  const textColor = cssColor(configuration.textColor, '#000');
  const canvas = h('canvas', {
    className: 'capture-pad', role: 'img', tabindex: '0',
    'aria-label': 'Signature pad: draw your signature with a finger, pen or mouse',
  });
  const strokes = [];
  let current = null;
  let start = null;
  const confirmButton = { label: 'Confirm', value: 'confirm', primary: true };
  const body = [
    error ? h('p', { className: 'capture-error', id: 'capture-error', role: 'alert', textContent: error }) : null,
    configuration.displayText ? text(configuration.displayText, textColor) : null,
    h('div', { className: 'capture-frame' }, canvas, h('div', { className: 'capture-line', 'aria-hidden': 'true' })),
    h('p', { className: 'hint', textContent: 'Draw inside the box, then confirm.' }),
  ];
  const typed = typing ? h('input', {
    type: 'text', id: 'capture-name', className: 'capture-name', autocomplete: 'name', maxlength: '200',
    'aria-label': 'Or type your name to sign with it', placeholder: 'Or type your name',
  }) : null;
  if (typed) body.push(h('label', { className: 'capture-name-label' }, typed));
  const name = () => (typed ? typed.value.trim() : '');
  // Whose certificate signs, and whether a name typed here or in the form is another.
  const who = signerNote(signer, { fields, typed: name });
  if (who) {
    body.unshift(who);
    typed?.addEventListener('input', () => who.update());
  }
  let context;
  const redraw = () => {
    const ratio = window.devicePixelRatio || 1;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.strokeStyle = ink;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    for (const stroke of strokes) drawStroke(context, stroke);
  };
  const point = (event) => {
    const rect = canvas.getBoundingClientRect();
    if (start === null) start = event.timeStamp;
    return {
      x: Math.round((event.clientX - rect.left) * 100) / 100,
      y: Math.round((event.clientY - rect.top) * 100) / 100,
      t: Math.round(event.timeStamp - start) / 1000,
      p: event.pressure || (event.pointerType === 'mouse' ? 0.5 : 0.5),
    };
  };
  return modal({
    title, className: 'capture', id: 'capture-dialog', cancelValue: null, body,
    actions: [
      { label: 'Clear', value: 'clear', onClick: () => { strokes.length = 0; redraw(); } },
      { label: 'Cancel', value: null },
      {
        ...confirmButton,
        onClick: (close) => {
          if (strokes.length) close(strokes);
          else if (name()) close({ name: name() });
          else canvas.focus();
        },
      },
    ],
    setup: (dialog) => {
      place(dialog, configuration.position);
      const ratio = window.devicePixelRatio || 1;
      const rect = canvas.getBoundingClientRect();
      canvas.width = Math.round(rect.width * ratio);
      canvas.height = Math.round(rect.height * ratio);
      context = canvas.getContext('2d');
      redraw();
      canvas.addEventListener('pointerdown', (event) => {
        event.preventDefault();
        canvas.setPointerCapture(event.pointerId);
        current = [point(event)];
        strokes.push(current);
      });
      canvas.addEventListener('pointermove', (event) => {
        if (!current) return;
        const samples = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
        for (const sample of samples.length ? samples : [event]) current.push(point(sample));
        redraw();
      });
      const end = () => {
        current = null;
        dialog.querySelector('[data-action="confirm"]').disabled = !strokes.length && !name();
      };
      typed?.addEventListener('input', end);
      canvas.addEventListener('pointerup', end);
      canvas.addEventListener('pointercancel', end);
      dialog.querySelector('[data-action="confirm"]').disabled = true;
      dialog.querySelector('[data-action="clear"]').addEventListener('click', end);
    },
  });
}

/**
 * Puts the dialog where the capture configuration says (`position`: [x, y, width, height] in CSS
 * pixels from the viewer's top-left corner, signo's `position`); centred without one. Through the
 * CSSOM: the page's CSP refuses style attributes.
 */
function place(dialog, position) {
  if (!Array.isArray(position) || position.length !== 4 || !position.every(Number.isFinite)) return;
  const [x, y, width, height] = position;
  dialog.classList.add('positioned');
  dialog.style.left = `${x}px`;
  dialog.style.top = `${y}px`;
  dialog.style.width = `${width}px`;
  dialog.style.height = `${height}px`;
}

/** The configuration's text in its colour (set through the CSSOM: the page's CSP refuses style attributes). */
function text(content, color) {
  const paragraph = h('p', { className: 'capture-text', textContent: content });
  paragraph.style.color = color;
  return paragraph;
}

/** Strokes the points of `stroke` (width from pressure). */
export function drawStroke(context, stroke, scale = 1, dx = 0, dy = 0) {
  if (!stroke.length) return;
  for (let i = 0; i < stroke.length; i++) {
    const a = stroke[Math.max(0, i - 1)];
    const b = stroke[i];
    context.lineWidth = Math.max(1, 3 * scale * (0.5 + (b.p ?? 0.5)));
    context.beginPath();
    context.moveTo(a.x * scale + dx, a.y * scale + dy);
    context.lineTo(b.x * scale + dx, b.y * scale + dy + (a === b ? 0.01 : 0));
    context.stroke();
  }
}

/** A small SVG preview of saved strokes `[[{x, y}]]` (any units, fitted to the box). */
export function strokesPreview(strokes, width = 160, height = 60) {
  const points = strokes.flat();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.setAttribute('aria-hidden', 'true');
  if (!points.length) return svg;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const spanX = Math.max(1, Math.max(...xs) - minX);
  const spanY = Math.max(1, Math.max(...ys) - minY);
  const scale = Math.min((width - 8) / spanX, (height - 8) / spanY);
  for (const stroke of strokes) {
    const path = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
    path.setAttribute('points', stroke.map((p) => `${4 + (p.x - minX) * scale},${4 + (p.y - minY) * scale}`).join(' '));
    svg.append(path);
  }
  return svg;
}
