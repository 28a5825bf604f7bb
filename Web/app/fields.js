// Form fields as real HTML inputs over the page tiles, at their widget rectangles; edits go to
// `PUT /api/fields/NAME`; `fieldChanged` events refresh them.
import { put } from './api.js';
import { announce, h } from './dialogs.js';

/** A field of `GET /api/fields` or of an event, with the names this file uses. */
export function normalizeField(f) {
  const rect = (r) => (Array.isArray(r) ? r : r && 'x0' in r ? [r.x0, r.y0, r.x1, r.y1] : null);
  // `page` counts from 0, as every page of the API does.
  const widgets = (f.widgets || []).map((w) => ({ ...w, rect: rect(w.rect) }));
  if (!widgets.length && f.page != null && f.rect) widgets.push({ page: f.page, rect: rect(f.rect) });
  return {
    raw: f, name: f.name, kind: f.kind, value: f.value, label: f.label || f.name,
    required: Boolean(f.required ?? f.isRequired), readOnly: Boolean(f.readOnly ?? f.isReadOnly),
    signed: Boolean(f.isSigned ?? f.signed), options: f.options || [], widgets,
    multiline: Boolean(f.multiline ?? f.isMultiline), multiSelect: Boolean(f.multiSelect ?? f.isMultiSelect),
    maxLength: f.maxLength,
  };
}

const isOn = (value) => value === true || (typeof value === 'string' && !['', 'Off', 'off', 'false'].includes(value));

/** What the message under a required field the session found empty asks for, by kind. */
const MISSING_TEXT = {
  text: 'Required: fill this in', checkbox: 'Required: tick this box', radio: 'Required: choose one',
  combo: 'Required: choose one', list: 'Required: choose one',
};

export class FieldLayer {
  /** `actions`: {onSign(name), onPhoto(name), onError(error)}. */
  constructor(pages, actions) {
    this.pages = pages;
    this.actions = actions;
    this.fields = new Map();
    this.elements = new Map();
    this.photoFields = new Set();
    this.placedPhotos = new Set();
    this.readOnly = false;
    this.selecting = null;
    /** The required fields the session last refused to sign without (missingRequiredFormField). */
    this.missing = new Set();
  }

  /** Builds the overlays for `fields` (replacing any earlier ones). */
  set(fields) {
    for (const list of this.elements.values()) for (const element of list) element.remove();
    this.fields.clear();
    this.elements.clear();
    for (const raw of fields) {
      const field = normalizeField(raw);
      this.fields.set(field.name, field);
      const list = [];
      field.widgets.forEach((widget, i) => {
        if (widget.page == null || !widget.rect || widget.page >= this.pages.elements.length) return;
        const element = this.build(field, widget, i);
        if (!element) return;
        this.pages.anchor(element, widget.page, widget.rect);
        list.push(element);
      });
      this.elements.set(field.name, list);
    }
    // A reload keeps the marks of the fields still empty.
    for (const name of this.missing) this.recheck(name);
  }

  build(field, widget, i) {
    const wrapper = h('div', { className: `field field-${field.kind}` + (field.required ? ' required' : ''), 'data-field': field.name });
    const label = field.label;
    const common = {
      'aria-label': label, title: label, name: field.name, 'data-field': field.name,
      'aria-required': field.required ? 'true' : null,
    };
    const locked = field.readOnly || this.readOnly;
    let control;
    if (this.photoFields.has(field.name)) {
      const placed = this.placedPhotos.has(field.name);
      const text = placed ? 'Replace photo' : 'Add photo';
      control = h('button', { ...common, type: 'button', className: 'photo-button', 'aria-label': `${label}: ${text.toLowerCase()}`, onclick: () => this.actions.onPhoto(field.name) },
        h('span', { textContent: text }));
      control.disabled = locked;
      wrapper.classList.add('field-photo');
      wrapper.classList.toggle('has-photo', placed);
    } else switch (field.kind) {
      case 'text':
        control = field.multiline || widget.rect[3] - widget.rect[1] > 40
          ? h('textarea', { ...common }) : h('input', { ...common, type: 'text', autocomplete: 'off' });
        if (field.maxLength) control.maxLength = field.maxLength;
        control.value = field.value || '';
        control.addEventListener('change', () => this.save(field.name, control.value));
        control.addEventListener('input', () => this.recheck(field.name));
        break;
      case 'checkbox':
        control = h('input', { ...common, type: 'checkbox' });
        control.checked = isOn(field.value);
        control.addEventListener('change', () => this.save(field.name, control.checked));
        break;
      case 'radio': {
        const state = widget.state ?? widget.exportValue ?? field.options[i] ?? String(i);
        control = h('input', { ...common, type: 'radio', value: state, 'aria-label': `${label}: ${state}` });
        control.checked = field.value === state;
        control.addEventListener('change', () => { if (control.checked) this.save(field.name, state); });
        break;
      }
      case 'combo':
      case 'list': {
        const multiple = field.kind === 'list' && field.multiSelect;
        control = h('select', { ...common, multiple, size: field.kind === 'list' ? Math.min(4, Math.max(2, field.options.length)) : null },
          field.kind === 'combo' && !field.required ? h('option', { value: '', textContent: '' }) : null,
          field.options.map((option) => h('option', { value: option, textContent: option })));
        this.selectValue(control, field.value);
        control.addEventListener('change', () => {
          const chosen = [...control.selectedOptions].map((o) => o.value);
          this.save(field.name, multiple ? chosen : chosen[0] ?? '');
        });
        break;
      }
      case 'signature':
        control = h('button', {
          ...common, type: 'button', className: 'signature-button',
          'aria-label': field.signed ? `${label}: signed` : `${label}: sign here`,
          onclick: () => this.actions.onSign(field.name),
        }, h('span', { textContent: field.signed ? 'Signed' : 'Sign here' }));
        control.disabled = field.signed || this.readOnly;
        wrapper.classList.toggle('signed', field.signed);
        break;
      default:
        return null;
    }
    if (locked && control.tagName !== 'BUTTON') {
      control.disabled = field.kind !== 'text';
      if (field.kind === 'text') control.readOnly = true;
      wrapper.classList.add('read-only');
    }
    wrapper.append(control);
    if (field.required) wrapper.append(h('span', { className: 'required-marker', 'aria-hidden': 'true', textContent: '*' }));
    wrapper.addEventListener('placed', (event) => {
      const size = Math.max(8, Math.min(event.detail.h * 0.62, 20));
      control.style.fontSize = (field.kind === 'text' && control.tagName === 'TEXTAREA' ? Math.min(size, 14) : size) + 'px';
    });
    return wrapper;
  }

  selectValue(select, value) {
    const values = Array.isArray(value) ? value : String(value ?? '').split(', ');
    for (const option of select.options) option.selected = values.includes(option.value);
  }

  async save(name, value) {
    // A field marked missing loses its mark once it holds a value (and gets it back if emptied):
    // the session checks again when a signature starts.
    this.recheck(name);
    try {
      const field = await put('/api/fields/' + encodeURIComponent(name), { value });
      if (field) this.update(field);
    } catch (error) {
      this.actions.onError(error);
    }
  }

  /** Refreshes the controls of one field (after `fieldChanged` or a PUT). */
  update(raw) {
    const field = normalizeField(raw);
    const old = this.fields.get(field.name);
    if (!old) return;
    if (!field.widgets.length) field.widgets = old.widgets;
    this.fields.set(field.name, field);
    for (const wrapper of this.elements.get(field.name) || []) {
      const control = wrapper.querySelector('input, textarea, select, button');
      if (!control || document.activeElement === control) continue;
      if (control.type === 'checkbox') control.checked = isOn(field.value);
      else if (control.type === 'radio') control.checked = field.value === control.value;
      else if (control.tagName === 'SELECT') this.selectValue(control, field.value);
      else if (control.tagName !== 'BUTTON') control.value = field.value ?? '';
      else if (field.kind === 'signature' && field.signed) {
        control.disabled = true;
        control.firstChild.textContent = 'Signed';
        wrapper.classList.add('signed');
      }
    }
    this.recheck(field.name);
  }

  /**
   * Marks the required fields the session found empty (missingRequiredFormField): each control
   * aria-invalid, with a visible message it is described by; focuses the first. Marks go as each
   * field is filled.
   */
  markMissing(fields) {
    const names = fields.map((f) => (typeof f === 'string' ? f : f.name));
    for (const name of this.missing) if (!names.includes(name)) this.setMissing(name, false);
    this.missing = new Set(names);
    for (const name of names) this.setMissing(name, true);
    const first = names.find((name) => this.elements.get(name)?.length);
    if (first) {
      const widget = this.fields.get(first).widgets.find((w) => w.page != null && w.rect) ?? this.fields.get(first).widgets[0];
      this.pages.goTo(widget.page, widget.rect);
      this.elements.get(first)[0].querySelector('input, textarea, select, button')?.focus({ preventScroll: true });
    }
  }

  /** Updates field `name`'s missing mark from what its controls hold, when the session marked it. */
  recheck(name) {
    if (!this.missing.has(name)) return;
    this.setMissing(name, !this.holdsValue(name));
    // Every field the session asked for holds a value: the banner that asked for them goes too.
    if ([...this.missing].every((other) => this.holdsValue(other))) {
      this.missing.clear();
      announce('');
    }
  }

  /** Whether field `name`'s controls hold a value: text typed, a box ticked, a button or an option chosen. */
  holdsValue(name) {
    return (this.elements.get(name) || []).some((wrapper) => {
      const control = wrapper.querySelector('input, textarea, select');
      if (!control) return false;
      if (control.type === 'checkbox' || control.type === 'radio') return control.checked;
      if (control.tagName === 'SELECT') return [...control.selectedOptions].some((o) => o.value !== '');
      return control.value !== '';
    });
  }

  /** Sets or clears field `name`'s missing mark: the outline, aria-invalid and the message under it. */
  setMissing(name, missing) {
    const field = this.fields.get(name);
    (this.elements.get(name) || []).forEach((wrapper, i) => {
      wrapper.classList.toggle('missing', missing);
      const control = wrapper.querySelector('input, textarea, select, button');
      let message = wrapper.querySelector('.missing-message');
      if (!missing) {
        message?.remove();
        control?.removeAttribute('aria-invalid');
        control?.removeAttribute('aria-describedby');
        return;
      }
      if (!message) {
        this.messageCount = (this.messageCount || 0) + 1;
        message = h('span', {
          className: 'missing-message', id: `missing-message-${this.messageCount}`,
          textContent: MISSING_TEXT[field?.kind] || 'Required',
        });
        // One message a field is enough to read; the other widgets of a radio group get the outline.
        if (i > 0) message.hidden = true;
        wrapper.append(message);
      }
      control?.setAttribute('aria-invalid', 'true');
      control?.setAttribute('aria-describedby', message.id);
    });
  }

  /** Highlights the candidate signature fields; a click on one resolves with its name. */
  chooseSignatureField(names) {
    this.selecting = new Set(names);
    for (const name of names) for (const e of this.elements.get(name) || []) e.classList.add('candidate');
    const first = this.fields.get(names[0]);
    if (first?.widgets[0]) this.pages.goTo(first.widgets[0].page, first.widgets[0].rect);
    (this.elements.get(names[0])?.[0]?.querySelector('button'))?.focus({ preventScroll: true });
  }

  /**
   * Brings the first field to fill into view and focuses it (the skip link's target): the first
   * required one still empty, else the first that takes input; false when there is none.
   */
  focusFirst() {
    const open = [...this.fields.values()].filter((f) => f.widgets?.length && !f.readOnly && !f.signed);
    const empty = (f) => !f.value || f.value === 'Off';
    const field = open.find((f) => f.required && empty(f)) || open[0];
    if (!field) return false;
    this.scrollTo(field.name);
    const control = this.elements.get(field.name)?.[0]?.querySelector('input, select, textarea, button');
    control?.focus({ preventScroll: true });
    return Boolean(control);
  }

  /** Scrolls field `name`'s first widget into the middle of the view; false when it has none. */
  scrollTo(name) {
    const widget = this.fields.get(name)?.widgets?.[0];
    if (!widget) return false;
    this.pages.goTo(widget.page, widget.rect);
    return true;
  }

  endChoice() {
    this.selecting = null;
    for (const list of this.elements.values()) for (const e of list) e.classList.remove('candidate');
  }

  signatureFields() {
    return [...this.fields.values()].filter((f) => f.kind === 'signature');
  }
}
