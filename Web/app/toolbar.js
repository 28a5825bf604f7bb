// The toolbar (signo showToolbar / toolbarHeight / showPageNumber; WYSIWYS accept / refuse).
import { h } from './dialogs.js';
import { button } from './icons.js';

export function buildToolbar(app, element) {
  const page = h('input', {
    id: 'page-number', className: 'page-number', type: 'text', inputmode: 'numeric', size: '3',
    'aria-label': 'Page number', autocomplete: 'off',
  });
  const total = h('span', { id: 'page-count', className: 'page-count' });
  page.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      const n = parseInt(page.value, 10);
      if (n >= 1) app.pages.goTo(n - 1);
      app.viewport.focus({ preventScroll: true });
    } else if (event.key === 'Escape') {
      page.value = String(app.pages.current + 1);
      page.blur();
    }
  });
  page.addEventListener('blur', () => { page.value = String(app.pages.current + 1); });
  const previous = button('prev', 'Previous page', () => app.pages.goTo(app.pages.current - 1), { id: 'tb-prev-page' });
  const next = button('next', 'Next page', () => app.pages.goTo(app.pages.current + 1), { id: 'tb-next-page' });
  const pager = h('div', { className: 'pager', id: 'pager' },
    previous, page, h('span', { 'aria-hidden': 'true', textContent: '/' }), total, next);
  // The zoom in per cent of the page's size at 72 dpi (100 %: a point a CSS pixel).
  const zoomLevel = h('output', { id: 'zoom-level', className: 'zoom-level', 'aria-label': 'Zoom level', textContent: '100 %' });

  const group = (...children) => h('div', { className: 'group' }, children);
  // The signature panel's button: hidden until the document has a signature; its count and tone
  // (data-tone good | bad) say how many and whether all are valid.
  const validation = button('shield', 'Signatures', () => app.validation.open(), { id: 'tb-validation', text: true });
  validation.hidden = true;
  // Signing with the person's own certificate at their trust service provider: shown when the
  // server has one (serve --csc without --credential); it opens the provider's authorization page.
  const provider = button('signatures', 'Provider certificate', () => app.workflow.useProvider(), { id: 'tb-provider', text: true });
  provider.hidden = true;
  // Completing a signed document (POST /api/complete), offered whenever it holds a signature.
  const finish = button('accept', 'Finish', () => app.workflow.finish(), { id: 'tb-finish', text: true });
  finish.title = 'Finish the document: no more signatures or changes';
  finish.hidden = true;
  const sidebar = button('sidebar', 'Pages and bookmarks', () => app.sidebar.toggle(), { id: 'tb-sidebar' });
  sidebar.setAttribute('aria-expanded', 'false');
  sidebar.setAttribute('aria-controls', 'sidebar');
  // On a phone the toolbar is one row: what signing needs stays, the rest (the groups marked
  // `secondary`) moves into the More menu, the same buttons, moved back when the window widens.
  const secondary = (...children) => h('div', { className: 'group secondary' }, children);
  const more = button('more', 'More tools', () => toggleMenu(), { id: 'tb-more' });
  more.setAttribute('aria-haspopup', 'true');
  more.setAttribute('aria-expanded', 'false');
  more.setAttribute('aria-controls', 'tb-menu');
  const menu = h('div', { id: 'tb-menu', className: 'toolbar-menu', role: 'group', 'aria-label': 'More tools', hidden: true });
  const toggleMenu = (open = menu.hidden) => {
    menu.hidden = !open;
    more.setAttribute('aria-expanded', String(open));
    if (open) menu.querySelector('button:not(:disabled)')?.focus();
  };
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      toggleMenu(false);
      more.focus();
    }
  });
  // A choice in the menu closes it.
  menu.addEventListener('click', (event) => { if (event.target.closest('button')) toggleMenu(false); });
  element.replaceChildren(
    secondary(button('back', 'Back', () => app.back(), { id: 'tb-back' }), sidebar),
    group(
      button('sign', 'Sign', () => app.workflow.sign(), { id: 'tb-sign' }),
    ),
    secondary(
      button('fields', 'List the signature fields', () => app.signatureInfo(), { id: 'tb-fields' }),
      button('save', 'Save', () => app.save(), { id: 'tb-save' }),
    ),
    group(
      provider,
      button('accept', 'Accept', () => app.workflow.accept(), { id: 'tb-accept', text: true }),
      button('refuse', 'Refuse', () => app.workflow.refuse(), { id: 'tb-refuse', text: true }),
      finish,
    ),
    h('div', { className: 'spacer' }),
    secondary(
      button('search', 'Search', () => app.search.open(), { id: 'tb-search' }),
      button('notes', 'Notes', () => app.notes.start(), { id: 'tb-notes' }),
      button('rect', 'Add a signature field', () => app.newSignatureField(), { id: 'tb-rect' }),
      button('signatures', 'Saved handwritten signatures', () => app.workflow.manageSignatures(), { id: 'tb-signatures' }),
    ),
    group(validation),
    secondary(
      button('zoomOut', 'Zoom out', () => app.zoomBy(1 / 1.25), { id: 'tb-zoom-out' }),
      zoomLevel,
      button('zoomIn', 'Zoom in', () => app.zoomBy(1.25), { id: 'tb-zoom-in' }),
      button('fitWidth', 'Fit width', () => app.fit('width'), { id: 'tb-fit-width' }),
      button('fit', 'Fit page', () => app.fit('page'), { id: 'tb-fit-page' }),
    ),
    pager,
    more,
  );
  element.after(menu);
  const narrow = window.matchMedia('(max-width: 600px)');
  const arrange = () => {
    const groups = [...element.querySelectorAll('.group.secondary'), ...menu.querySelectorAll('.group.secondary')];
    for (const part of groups) {
      if (narrow.matches && part.parentNode !== menu) menu.append(part);
      else if (!narrow.matches && part.parentNode === menu) element.insertBefore(part, part.dataset.before ? document.getElementById(part.dataset.before) : pager);
    }
    if (!narrow.matches) toggleMenu(false);
    // In the menu every button is a stop of its own (the toolbar's single stop is for the row).
    for (const item of menu.querySelectorAll('button')) item.tabIndex = 0;
  };
  // Where each secondary group goes back to in the wide toolbar: before the element that followed it.
  for (const part of element.querySelectorAll('.group.secondary')) {
    const next = part.nextElementSibling;
    if (next && !next.id) next.id = `tb-slot-${[...element.children].indexOf(next)}`;
    if (next) part.dataset.before = next.id;
  }
  narrow.addEventListener('change', arrange);
  arrange();
  rove(element);
  return {
    validationButton: validation,
    setPage(index, count) {
      if (document.activeElement !== page) page.value = String(index + 1);
      total.textContent = String(count);
      page.setAttribute('aria-label', `Page number, ${index + 1} of ${count}`);
      previous.disabled = index <= 0;
      next.disabled = index >= count - 1;
    },
    /** The layout's zoom, and which fit (if any) made it: the fit's button is pressed. */
    setZoom(zoom, fit) {
      zoomLevel.textContent = `${Math.round(zoom * 100)} %`;
      document.getElementById('tb-fit-width').setAttribute('aria-pressed', String(fit === 'width'));
      document.getElementById('tb-fit-page').setAttribute('aria-pressed', String(fit === 'page'));
    },
    showPageNumber(show) { pager.hidden = !show; },
    showFinish(show) { finish.hidden = !show; },
    /** GET /api/provider-signing: the button, and whose certificate was chosen. */
    showProvider(state) {
      this.provider = state;
      provider.hidden = !state?.available;
      const label = state?.signer ? `Certificate: ${state.signer}` : 'Provider certificate';
      provider.title = label;
      provider.setAttribute('aria-label', label);
      const text = provider.querySelector('span');
      if (text) text.textContent = label;
    },
    setReadOnly(readOnly) {
      this.readOnly = readOnly;
      for (const id of ['tb-sign', 'tb-accept', 'tb-refuse', 'tb-notes', 'tb-rect', 'tb-save']) {
        document.getElementById(id).disabled = readOnly;
      }
      if (this.saved) document.getElementById('tb-save').disabled = true;
    },
    /** signo documentSaved: true greys Save out until the document changes again. */
    setSaved(saved) {
      this.saved = saved;
      const save = document.getElementById('tb-save');
      save.disabled = saved || this.readOnly === true;
      // Entries are stored as they are made; Save tells the host the document is saved. Once it is,
      // the button says so rather than offering what is already done.
      const label = saved ? 'All changes saved' : 'Save: entries are kept as you type; this marks the document saved';
      save.setAttribute('aria-label', saved ? label : 'Save');
      save.title = label;
      save.classList.toggle('with-text', saved);
      let text = save.querySelector('span');
      if (saved && !text) {
        text = document.createElement('span');
        save.append(text);
      }
      if (text) text.textContent = saved ? 'Saved' : '';
      if (text && !saved) text.remove();
    },
  };
}

/**
 * The toolbar as one tab stop (WAI-ARIA toolbar pattern): Tab enters it on the last button used,
 * the arrow keys, Home and End move between its visible, enabled buttons. The page number field
 * keeps its own stop (its arrow keys move the caret).
 */
function rove(toolbar) {
  const items = () => [...toolbar.querySelectorAll('button')].filter((b) => !b.disabled && b.getClientRects().length);
  let current = null;
  const settle = () => {
    const list = items();
    if (!list.includes(current)) current = list[0] || null;
    for (const item of toolbar.querySelectorAll('button')) item.tabIndex = item === current ? 0 : -1;
  };
  toolbar.addEventListener('focusin', (event) => {
    if (event.target.tagName === 'BUTTON') {
      current = event.target;
      settle();
    }
  });
  toolbar.addEventListener('keydown', (event) => {
    if (event.target.tagName !== 'BUTTON' || !['ArrowRight', 'ArrowLeft', 'Home', 'End'].includes(event.key)) return;
    const list = items();
    const at = list.indexOf(event.target);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: list.length - 1 }[event.key];
    const next = list[(to + list.length) % list.length];
    if (!next) return;
    event.preventDefault();
    current = next;
    settle();
    next.focus();
  });
  // Buttons appear, disappear and are disabled as the session moves: the stop stays on one that can take it.
  new MutationObserver(settle).observe(toolbar, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'disabled'] });
  window.matchMedia('(max-width: 600px)').addEventListener('change', settle);
  settle();
}
