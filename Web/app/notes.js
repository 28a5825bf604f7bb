// Notes mode (signo startNotesModeWithConfig …): ink drawn with Pointer Events on a canvas over
// each page, sent in PDF user space; width, colour, undo, redo, save, cancel.
//
// The notes are the session's (its viewer mode, ModeJSON): every answer carries them and this file
// draws what it gets, so undo, redo and a reload show the server's notes, never a copy kept here.
// Only the stroke under the pen is drawn here first — it must follow the pen at once — and until
// the server has it, it stays drawn as pending.
import { get, post } from './api.js';
import { announce, h } from './dialogs.js';
import { apply, invert, pdfRect } from './geometry.js';
import { button } from './icons.js';

export class Notes {
  constructor(app, bar) {
    this.app = app;
    this.bar = bar;
    this.active = false;
    // The session's notes mode ({notes, canUndo, canRedo, width, color}) and the strokes sent but
    // not answered yet.
    this.mode = null;
    this.pending = [];
    this.canvases = new Map();
    this.width = h('select', { id: 'notes-width', 'aria-label': 'Line width' },
      [1, 2, 3, 5, 8].map((w) => h('option', { value: w, textContent: `${w} pt` })));
    this.width.value = '2';
    this.color = h('input', { type: 'color', id: 'notes-color', 'aria-label': 'Ink colour', value: '#d01010' });
    const style = () => this.active && this.send('/api/notes/style', this.style());
    this.width.addEventListener('change', style);
    this.color.addEventListener('change', style);
    bar.append(
      h('span', { className: 'bar-title', textContent: 'Notes' }), this.width, this.color,
      button('undo', 'Undo', () => this.undo(), { id: 'notes-undo' }),
      button('redo', 'Redo', () => this.redo(), { id: 'notes-redo' }),
      h('span', { className: 'spacer' }),
      h('button', { type: 'button', id: 'notes-cancel', textContent: 'Cancel', onclick: () => this.finish(false) }),
      h('button', { type: 'button', id: 'notes-save', className: 'primary', textContent: 'Save', onclick: () => this.finish(true) }),
    );
    const viewport = app.viewport;
    viewport.addEventListener('pointerdown', (event) => this.down(event));
    viewport.addEventListener('pointermove', (event) => this.move(event));
    viewport.addEventListener('pointerup', (event) => this.up(event));
    viewport.addEventListener('pointercancel', (event) => this.up(event));
  }

  style() { return { width: Number(this.width.value), color: this.color.value }; }

  async start() {
    try {
      const answer = await post('/api/notes/start', this.style());
      this.app.workflow.setPhase(answer?.phase);
      // Refused (a PDF/A-1, signed or read-only document, a viewer rectangle open): the session
      // stays where it was and its notesModeDidFailToStart event shows why; the notes bar stays closed.
      if (answer?.mode?.name === 'notes') {
        this.app.search.show(answer.mode);  // the session ended any search shown
        this.enter(answer.mode);
      }
    } catch (error) {
      this.app.workflow.showError(error, 'Notes cannot start');
    }
  }

  /** Shows the notes bar over the session's notes mode `mode` (after a start, or a reload). */
  enter(mode) {
    if (!this.active) {
      this.active = true;
      this.pending = [];
      this.bar.hidden = false;
      document.body.classList.add('notes-mode');
      // The document's toolbar waits while notes are taken: out of reach of pointer, keyboard and
      // screen reader alike (the notes bar is the toolbar now).
      document.getElementById('toolbar').inert = true;
      this.app.workflow.setPhase('notes');
      announce('Notes: draw on the page, then save');
    }
    if (mode) {
      if (mode.width) this.width.value = String(mode.width);
      if (mode.color) this.color.value = mode.color;
      this.show(mode);
    }
  }

  /** Draws the session's notes: every page that has some, and the pages that had some before. */
  show(mode) {
    if (mode?.name !== 'notes') return;
    this.mode = mode;
    this.bar.querySelector('#notes-undo').disabled = !mode.canUndo;
    this.bar.querySelector('#notes-redo').disabled = !mode.canRedo;
    const pages = new Set([...this.canvases.keys(), ...(mode.notes || []).map((note) => note.page)]);
    for (const index of pages) {
      if (!this.app.pages.elements[index]) continue;
      this.canvas(index);
      this.redraw(index);
    }
  }

  /** Posts an intent; the answer's mode is drawn. */
  async send(path, body) {
    try {
      const answer = await post(path, body);
      this.show(answer?.mode);
      return answer;
    } catch (error) {
      this.app.workflow.showError(error, 'Notes');
      return null;
    }
  }

  exit() {
    this.active = false;
    this.mode = null;
    this.pending = [];
    this.bar.hidden = true;
    document.body.classList.remove('notes-mode');
    document.getElementById('toolbar').inert = false;
    for (const canvas of this.canvases.values()) canvas.remove();
    this.canvases.clear();
    this.drawing = null;
  }

  async finish(save) {
    try {
      const answer = await post(save ? '/api/notes/save' : '/api/notes/cancel');
      this.exit();
      this.app.workflow.setPhase(answer?.phase || 'editing');
      announce(save ? 'Notes saved' : 'Notes discarded');
      if (save) this.app.reloadDocument();
    } catch (error) {
      this.app.workflow.showError(error, save ? 'The notes could not be saved' : 'Notes');
    }
  }

  canvas(index) {
    let canvas = this.canvases.get(index);
    if (canvas) return canvas;
    const page = this.app.pages.elements[index];
    canvas = h('canvas', { className: 'notes-canvas', 'aria-hidden': 'true' });
    canvas.addEventListener('placed', () => this.redraw(index));
    this.canvases.set(index, canvas);
    const matrix = this.app.pages.matrix(index);
    this.app.pages.anchor(canvas, index, pdfRect(matrix, { x: 0, y: 0, w: page.clientWidth, h: page.clientHeight }));
    return canvas;
  }

  redraw(index) {
    const canvas = this.canvases.get(index);
    if (!canvas) return;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || parseFloat(canvas.style.width);
    const height = canvas.clientHeight || parseFloat(canvas.style.height);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const matrix = this.app.pages.matrix(index);
    const zoom = Math.hypot(matrix[0], matrix[1]);
    // The session's notes (each of strokes in one pen), then the strokes it has not answered yet.
    const drawn = [...(this.mode?.notes || []), ...this.pending, this.drawing].filter((n) => n && n.page === index);
    for (const note of drawn) {
      context.strokeStyle = note.color;
      context.lineWidth = note.width * zoom;
      context.lineCap = 'round';
      context.lineJoin = 'round';
      for (const points of note.strokes || [note.points]) {
        context.beginPath();
        points.forEach((p, i) => {
          const [x, y] = apply(matrix, p.x, p.y);
          if (i) context.lineTo(x, y); else context.moveTo(x, y);
        });
        if (points.length === 1) context.lineTo(...apply(matrix, points[0].x + 0.01, points[0].y));
        context.stroke();
      }
    }
  }

  point(event, index) {
    const rect = this.app.pages.elements[index].getBoundingClientRect();
    const [x, y] = apply(invert(this.app.pages.matrix(index)), event.clientX - rect.left, event.clientY - rect.top);
    return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
  }

  down(event) {
    if (!this.active || event.button > 0) return;
    const hit = this.app.pages.hit(event.clientX, event.clientY);
    if (!hit) return;
    event.preventDefault();
    this.app.viewport.setPointerCapture(event.pointerId);
    this.canvas(hit.index);
    this.drawing = { page: hit.index, pointer: event.pointerId, ...this.style(), points: [this.point(event, hit.index)] };
  }

  move(event) {
    if (!this.drawing || event.pointerId !== this.drawing.pointer) return;
    const samples = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (const sample of samples.length ? samples : [event]) this.drawing.points.push(this.point(sample, this.drawing.page));
    this.redraw(this.drawing.page);
  }

  async up(event) {
    if (!this.drawing || event.pointerId !== this.drawing.pointer) return;
    const stroke = this.drawing;
    this.drawing = null;
    this.pending.push(stroke);
    this.redraw(stroke.page);
    try {
      const answer = await post('/api/notes/stroke', { page: stroke.page, strokes: [stroke.points] });
      this.pending.splice(this.pending.indexOf(stroke), 1);
      this.show(answer?.mode);
    } catch (error) {
      this.pending.splice(this.pending.indexOf(stroke), 1);
      this.redraw(stroke.page);
      this.app.workflow.showError(error, 'The stroke was not kept');
    }
  }

  undo() { return this.send('/api/notes/undo'); }

  redo() { return this.send('/api/notes/redo'); }

  handlers() {
    return {
      // Started elsewhere (the host, another tab): the session's notes come with its state.
      notesModeDidStart: () => {
        if (!this.active) get('/api/state').then((state) => this.enter(state?.mode)).catch((e) => console.warn(e));
      },
      notesModeDidFailToStart: (data) => this.app.workflow.showError({ message: 'Notes cannot be added to this document', signoCode: data?.signoCode ?? data?.code }, 'Notes'),
      notesModeDidFinish: () => { if (this.active) this.exit(); },
      notesModeDidFinishWithFailure: (data) => this.app.workflow.showError({ message: 'The notes could not be saved', signoCode: data?.signoCode ?? data?.code }, 'Notes'),
    };
  }
}
