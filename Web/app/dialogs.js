// Modal dialogs on <dialog>: showModal() makes the rest of the page inert (focus stays inside),
// Escape cancels. Each dialog resolves a promise with the chosen action.

/** Element helper: `h('div', {className: 'x'}, child, 'text')`. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) element.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'className' || key === 'textContent' || key === 'value' || key === 'checked') element[key] = value;
    else element.setAttribute(key, value === true ? '' : value);
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

let counter = 0;

/**
 * Opens a modal dialog with `title`, `body` nodes and `actions` [{label, value, primary}].
 * Resolves with the action's value, or `cancelValue` on Escape. `setup(dialog, close)` may wire more.
 */
export function modal({ title, body = [], actions = [], cancelValue = 'cancel', className = '', id, setup }) {
  return new Promise((resolve) => {
    const titleID = 'dialog-title-' + ++counter;
    const dialog = h('dialog', { className: 'modal ' + className, 'aria-modal': 'true', 'aria-labelledby': titleID, id });
    let done = false;
    const close = (value) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    dialog.append(
      h('h2', { id: titleID, textContent: title }),
      h('div', { className: 'modal-body' }, body),
      h('div', { className: 'modal-actions' }, actions.map((action) =>
        h('button', {
          type: 'button', className: action.danger ? 'danger' : action.primary ? 'primary' : '', textContent: action.label,
          'data-action': action.value, onclick: () => action.onClick ? action.onClick(close) : close(action.value),
        }))),
    );
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      close(cancelValue);
    });
    // In the page's dialogs region, so that no content is outside a landmark (axe-core's region rule).
    (document.getElementById('dialogs') || document.body).append(dialog);
    dialog.showModal();
    setup?.(dialog, close);
  });
}

/** A message with one OK button. */
export function alertDialog(title, message) {
  return modal({ title, body: [h('p', { textContent: message })], actions: [{ label: 'OK', value: 'ok', primary: true }], cancelValue: 'ok' });
}

/** Announces `text` to screen readers and shows it in the banner for a while. */
export function announce(text, { sticky = false, busy = false } = {}) {
  const banner = document.getElementById('banner');
  banner.replaceChildren(busy ? h('span', { className: 'spinner', 'aria-hidden': 'true' }) : '', h('span', { textContent: text }));
  banner.hidden = !text;
  banner.dataset.busy = busy ? '1' : '';
  clearTimeout(announce.timer);
  if (!sticky && text) announce.timer = setTimeout(() => { banner.hidden = true; }, 4000);
}
