// Who signs: the line the capture dialog and the preview show ("Signing as Ada Lovelace —
// certificate issued by …", from `GET /api/state`'s `signer`), and a warning when a name the person
// typed — in the capture dialog, or in the form's name field — is not the certificate's.
import { h } from './dialogs.js';

/** A name compared loosely: case, accents and spacing aside. */
export function sameName(a, b) {
  const fold = (text) => String(text).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  return fold(a) === fold(b);
}

/** The form's fields a person types their own name into (Name, Full name, Signer, Your name). */
export function formNames(fields) {
  const names = [];
  for (const field of fields?.values?.() || []) {
    if (field.kind !== 'text' || !field.value) continue;
    const label = `${field.name}`.toLowerCase().replace(/[\s_.-]+/g, ' ').trim();
    if (['name', 'full name', 'signer', 'signer name', 'your name'].includes(label)) names.push(String(field.value));
  }
  return names;
}

/**
 * The element saying who signs (null when the server does not know before the signature: a host
 * or a delegate makes it). `typed()` gives a name typed in the dialog, if any; `update()` on the
 * returned element checks it again.
 */
export function signerNote(signer, { fields = null, typed = () => '' } = {}) {
  if (!signer?.name) return null;
  const issuer = signer.issuer && !sameName(signer.issuer, signer.name) ? ` — certificate issued by ${signer.issuer}` : '';
  const warning = h('p', { className: 'signer-warning', id: 'signer-warning', role: 'status', hidden: true });
  const note = h('div', { className: 'signer-note', id: 'signing-as' },
    h('p', {}, h('span', { textContent: 'Signing as ' }), h('strong', { textContent: signer.name }), h('span', { textContent: issuer })),
    warning);
  note.update = () => {
    const differing = [typed(), ...formNames(fields)].filter((name) => name && !sameName(name, signer.name));
    warning.hidden = !differing.length;
    warning.textContent = differing.length
      ? `“${differing[0]}” is not the certificate's name: the signature is made in ${signer.name}'s name.`
      : '';
  };
  note.update();
  return note;
}
