// Notes mode (signo startNotesModeWithConfig …): ink drawn with Pointer Events on a canvas over
// each page, sent in PDF user space; width, colour, undo, redo, save, cancel.
import { post } from './api.js';
import { announce, h } from './dialogs.js';
import { apply, invert, pdfRect } from './geometry.js';
import { button } from './icons.js';

export class Notes {
  constructor(app, bar) {
    this.app = app;
    this.bar = bar;
    this.active = false;
    this.strokes = [];
    this.undone = [];
    this.canvases = new Map();
    this.width = h('select', { id: 'notes-width', 'aria-label': 'Line width' },
      [1, 2, 3, 5, 8].map((w) => h('option', { value: w, textContent: `${w} pt` })));
    this.width.value = '2';
    this.color = h('input', { type: 'color', id: 'notes-color', 'aria-label': 'Ink colour', value: '#d01010' });
    const style = () => this.active && post('/api/notes/style', this.style()).catch((e) => app.workflow.showError(e));
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
      // Refused (a PDF/A-1, signed or read-only document): the session stays where it was and its
      // notesModeDidFailToStart event shows why; the notes bar stays closed.
      if (answer?.phase === 'notes') this.enter();
    } catch (error) {
      this.app.workflow.showError(error, 'Notes cannot start');
    }
  }

  enter() {
    if (this.active) return;
    this.active = true;
    this.strokes = [];
    this.undone = [];
    this.bar.hidden = false;
    document.body.classList.add('notes-mode');
    this.app.workflow.setPhase('notes');
    announce('Notes: draw on the page, then save');
  }

  exit() {
    this.active = false;
    this.bar.hidden = true;
    document.body.classList.remove('notes-mode');
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
    for (const stroke of [...this.strokes, this.drawing].filter((s) => s && s.page === index)) {
      context.strokeStyle = stroke.color;
      context.lineWidth = stroke.width * zoom;
      context.lineCap = 'round';
      context.lineJoin = 'round';
      context.beginPath();
      stroke.points.forEach((p, i) => {
        const [x, y] = apply(matrix, p.x, p.y);
        if (i) context.lineTo(x, y); else context.moveTo(x, y);
      });
      if (stroke.points.length === 1) context.lineTo(...apply(matrix, stroke.points[0].x + 0.01, stroke.points[0].y));
      context.stroke();
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
    this.strokes.push(stroke);
    this.undone = [];
    this.redraw(stroke.page);
    try {
      await post('/api/notes/stroke', { page: stroke.page, strokes: [stroke.points] });
    } catch (error) {
      this.strokes.splice(this.strokes.indexOf(stroke), 1);
      this.redraw(stroke.page);
      this.app.workflow.showError(error, 'The stroke was not kept');
    }
  }

  async undo() {
    if (!this.strokes.length) return;
    try {
      await post('/api/notes/undo');
      const stroke = this.strokes.pop();
      this.undone.push(stroke);
      this.redraw(stroke.page);
    } catch (error) { this.app.workflow.showError(error); }
  }

  async redo() {
    if (!this.undone.length) return;
    try {
      await post('/api/notes/redo');
      const stroke = this.undone.pop();
      this.strokes.push(stroke);
      this.redraw(stroke.page);
    } catch (error) { this.app.workflow.showError(error); }
  }

  handlers() {
    return {
      notesModeDidStart: () => this.enter(),
      notesModeDidFailToStart: (data) => this.app.workflow.showError({ message: 'Notes cannot be added to this document', signoCode: data?.signoCode ?? data?.code }, 'Notes'),
      notesModeDidFinish: () => { if (this.active) this.exit(); },
      notesModeDidFinishWithFailure: (data) => this.app.workflow.showError({ message: 'The notes could not be saved', signoCode: data?.signoCode ?? data?.code }, 'Notes'),
    };
  }
}
