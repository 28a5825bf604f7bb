// The signing workflow as the session's events ask for it (WYSIWYS / signo): missing fields, field
// choice, capture, saved signatures, positioning, preview, progress, the result and failures.
import { del, get, post, url } from './api.js';
import { alertDialog, announce, h, modal } from './dialogs.js';
import { captureSignature, strokesPreview } from './capture.js';
import { signerNote } from './signer.js';
import { editRectangle } from './box.js';
import { normalizeField } from './fields.js';
import { viewBox } from './geometry.js';

const list = (data, key) => (Array.isArray(data) ? data : (data && (data[key] || data.fields || data.signatures)) || []);

/**
 * A disclosure with the text of page `index` of the document as it stands (during the confirmation:
 * the prepared bytes to be signed), a paragraph a line (`GET /api/pages/N/text`).
 */
function previewText(index, done = 'signed') {
  const body = h('div', { className: 'preview-text', 'aria-live': 'polite' }, h('p', { textContent: 'Reading the page…' }));
  get(`/api/pages/${index}/text`).then((answer) => {
    const lines = (answer?.lines || []).map((line) => h('p', { textContent: line.words.map((word) => word.text).join(' ') }));
    body.replaceChildren(...(lines.length ? lines : [h('p', { textContent: 'This page has no text, only images.' })]));
    if (answer?.truncated) body.append(h('p', { textContent: 'The page holds more text than is shown here.' }));
  }).catch(() => body.replaceChildren(h('p', { textContent: 'The text of this page could not be read in time.' })));
  return h('details', { className: 'preview-text-block', 'data-page': index },
    h('summary', { textContent: `Text of page ${index + 1} as it will be ${done}` }), body);
}

/**
 * Zoom for the preview's pages: Fit shows each page whole, the + and − buttons enlarge it (the pages
 * then drawn again at that size by the tile route, which serves the prepared bytes while they wait
 * for the confirmation), so that small filled values can be read before they are signed.
 */
function previewZoom(box, pages) {
  let zoom = 1;
  const level = h('output', { className: 'zoom-level', id: 'preview-zoom-level', textContent: 'Fit' });
  const apply = () => {
    box.classList.toggle('zoomed', zoom > 1);
    level.textContent = zoom > 1 ? `${Math.round(zoom * 100)} %` : 'Fit';
    box.querySelectorAll('.preview-image').forEach((image, i) => {
      image.parentNode.style.setProperty('width', zoom > 1 ? `${Math.round(zoom * 100)}%` : '');
      const index = pages[i];
      if (zoom > 1 && index !== undefined) {
        const scale = Math.min(8, Math.round(zoom * 2 * 100) / 100);
        const source = url(`/api/pages/${index}/tile`, { scale, t: Date.now() });
        if (!image.dataset.scale || Number(image.dataset.scale) < scale) {
          image.dataset.scale = String(scale);
          image.src = source;
        }
      }
    });
  };
  const step = (factor) => () => {
    zoom = Math.max(1, Math.min(4, factor ? zoom * factor : 1));
    apply();
  };
  return h('div', { className: 'preview-zoom', role: 'group', 'aria-label': 'Zoom of the preview' },
    h('button', { type: 'button', id: 'preview-zoom-out', textContent: '−', 'aria-label': 'Zoom out', onclick: step(1 / 1.5) }),
    level,
    h('button', { type: 'button', id: 'preview-zoom-in', textContent: '+', 'aria-label': 'Zoom in', onclick: step(1.5) }),
    h('button', { type: 'button', id: 'preview-zoom-fit', textContent: 'Fit', 'aria-label': 'Fit the page', onclick: step(0) }));
}

export class Workflow {
  constructor(app) {
    this.app = app;
  }

  setPhase(phase) {
    if (phase) document.body.dataset.phase = phase;
    if (phase) this.app.updateFinish?.();
    // Signing takes the screen: the session has ended any search it showed (its viewer mode).
    if (phase && !['editing', 'finished', 'notes'].includes(phase) && this.app.search?.mode) this.app.search.clear();
  }

  /**
   * POSTs a workflow call; shows its error; returns the answer or null. A signature refused while
   * required fields are empty (409 requiredFieldsEmpty, whichever way it was started) shows no
   * dialog: the session's missingRequiredFormField marks the fields and focuses the first.
   */
  async call(path, body) {
    try {
      const answer = await post(path, body);
      this.setPhase(answer?.phase);
      return answer ?? {};
    } catch (error) {
      if (error.code === 'requiredFieldsEmpty') {
        // Said at once unless the event (which names the fields by their labels) came first.
        const message = error.message || 'fill in the required fields first';
        if (!document.querySelector('.field.missing')) announce(message[0].toUpperCase() + message.slice(1), { sticky: true });
        return null;
      }
      this.showError(error);
      return null;
    }
  }

  showError(error, title = 'That did not work') {
    const code = error.signoCode !== undefined && error.signoCode !== null ? ` (code ${error.signoCode})` : '';
    return alertDialog(title, `${error.message || error.text || 'Unknown error'}${code}`);
  }

  accept() { return this.call('/api/accept'); }

  /**
   * Chooses the credential of the person's account that signs next: each listed with its
   * certificate's name and how it is authorized; the PIN and one-time password fields show when
   * the chosen one asks for them. They go to the server with the choice and are cleared here.
   */
  async chooseProviderCredential(state) {
    const credentials = state.credentials || [];
    if (!credentials.length) return;
    let selected = credentials.some((c) => c.id === state.credential) ? state.credential : credentials[0].id;
    const how = (c) => {
      if (c.authorization === 'pin') return c.otp !== 'none' ? `${c.pinLabel || 'PIN'} and one-time password` : c.pinLabel || 'PIN';
      return c.authorization === 'perSignature' ? 'authorized at the provider for each signature' : 'no PIN';
    };
    // A PIN is no site password: 'one-time-code' keeps password managers from offering to save it.
    const pin = h('input', { type: 'password', id: 'provider-pin', autocomplete: 'one-time-code' });
    const otp = h('input', { type: 'text', id: 'provider-otp', autocomplete: 'one-time-code', inputmode: 'numeric' });
    const pinName = h('span', { textContent: 'PIN' });
    const pinRow = h('label', { className: 'provider-secret' }, pinName, pin);
    const otpRow = h('label', { className: 'provider-secret' }, h('span', { textContent: 'One-time password' }), otp);
    const update = () => {
      const chosen = credentials.find((c) => c.id === selected);
      const asks = (presence) => chosen?.authorization === 'pin' && presence && presence !== 'none';
      pinRow.hidden = !asks(chosen?.pin);
      otpRow.hidden = !asks(chosen?.otp);
      pinName.textContent = chosen?.pinLabel || 'PIN';
    };
    const choices = credentials.map((c) => h('label', { className: 'provider-choice' },
      h('input', {
        type: 'radio', name: 'provider-credential', value: c.id, checked: c.id === selected,
        onchange: () => { selected = c.id; update(); },
      }),
      h('span', { textContent: `${c.signer} (${how(c)})` })));
    update();
    const choice = await modal({
      title: 'Your certificate at the provider', id: 'provider-chooser',
      body: [h('fieldset', { className: 'provider-choices' }, h('legend', { textContent: 'Sign with' }), choices), pinRow, otpRow],
      actions: [
        { label: 'Another account', value: 'account' },
        { label: 'Cancel', value: 'cancel' },
        { label: 'Use this certificate', value: 'use', primary: true },
      ],
    });
    const secrets = { pin: pinRow.hidden ? null : pin.value || null, otp: otpRow.hidden ? null : otp.value || null };
    pin.value = '';
    otp.value = '';
    if (choice === 'account') return this.useProvider(true);
    if (choice !== 'use') return;
    try {
      const answer = await post('/api/provider-signing/credential', { credential: selected, ...secrets });
      this.app.toolbar.showProvider(answer);
      announce(`Your signature will be made with the certificate of ${answer.signer}`);
    } catch (error) {
      this.showError(error, 'That certificate cannot sign');
    }
  }

  /** Sends the browser to the provider to authorize the prepared signature; coming back signs it. */
  async authorizeAtProvider() {
    try {
      const answer = await post('/api/provider-signing/authorize');
      if (answer?.url) window.location.assign(answer.url);
    } catch (error) {
      this.showError(error, 'The provider cannot be reached');
    }
  }

  /**
   * The provider button: with the person signed in at their provider, the chooser of their
   * credentials; else (or for another account) the provider's authorization page, which comes back
   * to /provider-return.
   */
  async useProvider(anotherAccount = false) {
    const state = this.app.toolbar.provider;
    if (!anotherAccount && state?.credentials?.length) return this.chooseProviderCredential(state);
    try {
      const answer = await post('/api/provider-signing');
      if (answer?.url) window.location.assign(answer.url);
    } catch (error) {
      this.showError(error, 'The provider cannot be reached');
    }
  }

  async refuse() {
    const choice = await modal({
      title: 'Refuse this document?', id: 'refuse-dialog',
      body: [h('p', { textContent: 'The document will be marked as refused and signed. This cannot be undone.' })],
      actions: [{ label: 'Cancel', value: 'cancel' }, { label: 'Refuse', value: 'refuse', danger: true }],
    });
    if (choice === 'refuse') await this.call('/api/refuse');
  }

  /** signo's "sign" button / a tap on a signature field. */
  sign(field) {
    if (document.body.dataset.phase === 'selectingField' && field) return this.call('/api/select-field', { name: field });
    return this.call('/api/start-signature', field ? { field } : undefined);
  }

  handlers() {
    const app = this.app;
    return {
      missingRequiredFormField: (data) => {
        const fields = list(data, 'fields').map(normalizeField);
        this.setPhase('editing');
        app.fields.markMissing(fields);
        announce(`Fill in the required fields first: ${fields.map((f) => f.label).join(', ')}`, { sticky: true });
      },
      selectSignatureFormField: (data) => {
        const fields = list(data, 'fields').map(normalizeField);
        this.setPhase('selectingField');
        app.fields.chooseSignatureField(fields.map((f) => f.name));
        announce('Choose where to sign: select one of the highlighted signature fields', { sticky: true });
      },
      didSelectSignatureFormField: () => { app.fields.endChoice(); announce(''); },
      signatureCaptureRequired: (data) => this.capture(data),
      savedSignatureSelectionRequired: async (data) => {
        this.setPhase('choosingSavedSignature');
        const id = await this.chooseSaved(list(data, 'signatures'));
        if (id !== null) await this.call('/api/choose-signature', { id });
        else await this.call('/api/cancel');
      },
      signatureRequiresPositioning: async (data) => {
        this.setPhase('positioning');
        const page = data.page ?? 0;
        const rect = data.proposedRect ?? data.rect;
        announce('Move and resize the signature, then confirm', { sticky: true });
        // The box shows the signature as it will be drawn (GET /api/appearance.png).
        const result = await editRectangle(app.pages, page, rect, {
          label: 'Signature position', text: 'Signature',
          image: (width, height, scale) => url('/api/appearance.png', { width, height, scale }),
        });
        announce('');
        if (result) await this.call('/api/position', result);
        else await this.call('/api/cancel');
      },
      onConfirmationRequired: async (data) => {
        this.setPhase('confirming');
        announce('');
        const page = data?.page ?? 0;
        const image = h('img', {
          className: 'preview-image', id: 'preview-image',
          alt: `Preview of page ${page + 1} as it will be ${data?.refusal === true ? 'refused' : 'signed'}`,
          src: url(data?.url || '/api/preview.png', { t: Date.now() }),
        });
        // A refusal watermarks every page: each is shown, drawn from the prepared bytes (the document
        // the session holds while it waits for the confirmation).
        // At most 20 more (a refusal of a long document changes every page); the rest are named.
        // The pages the person filled are shown too: what they entered is part of what is signed.
        const filled = [...app.fields.fields.values()]
          .filter((field) => field.kind !== 'signature' && field.value && field.value !== 'Off')
          .flatMap((field) => (field.widgets || []).map((widget) => widget.page));
        const listed = [...new Set([...(data?.pages || []), ...filled])].filter((index) => index !== page).sort((a, b) => a - b);
        const others = listed.slice(0, 20).map((index) => this.previewFrame(index, h('img', {
          className: 'preview-image', loading: 'lazy', 'data-page': index,
          alt: `Preview of page ${index + 1} as it will be signed`,
          src: url(`/api/pages/${index}/tile`, { scale: 1.5, t: Date.now() }),
        })));
        // What will be signed, as text too (a screen reader cannot read the images): each page's
        // words, read from the prepared bytes the session holds now.
        const total = data?.changedPageCount ?? listed.length + 1;
        // A refusal is confirmed as a refusal: its own title and a red Refuse, never "Sign".
        const refusal = data?.refusal === true;
        const done = refusal ? 'refused' : 'signed';
        const texts = [page, ...listed.slice(0, 20)].map((index) => previewText(index, done));
        const text = !others.length ? `This is the page exactly as it will be ${done}.`
          : total > others.length + 1 ? `These are ${others.length + 1} of the ${total} pages the ${refusal ? 'refusal' : 'signature'} changes, exactly as they will be ${done}.`
            : `These are the ${others.length + 1} pages exactly as they will be ${done}.`;
        // After a restart: why the preview is shown again.
        const note = data?.note ? h('p', { id: 'recovery-note', className: 'note', textContent: data.note }) : null;
        const pagesBox = h('div', { className: 'preview-pages', tabindex: '0', 'aria-label': 'The pages to confirm' },
          this.previewFrame(page, image), others);
        const choice = await modal({
          title: refusal ? 'Check what you refuse' : 'Check what you sign', id: 'preview-dialog', className: 'preview',
          body: [signerNote(app.state.signer, { fields: app.fields.fields }), note, previewZoom(pagesBox, [page, ...listed.slice(0, 20)]), pagesBox,
            h('p', { textContent: text }), ...texts],
          actions: [{ label: 'Cancel', value: 'cancel' },
            refusal ? { label: 'Refuse', value: 'confirm', danger: true } : { label: 'Sign', value: 'confirm', primary: true }],
        });
        // A provider credential whose owner authorizes each signature: the person goes to the provider
        // with this signature's hash, and coming back confirms it.
        if (choice === 'confirm' && app.toolbar.provider?.authorization === 'perSignature') {
          await this.authorizeAtProvider();
          return;
        }
        await this.call(choice === 'confirm' ? '/api/confirm' : '/api/cancel');
      },
      willPrepareDocument: () => { this.setPhase('preparing'); announce('Preparing the document…', { sticky: true, busy: true }); },
      documentPreparedForSignature: () => { this.setPhase('awaitingSignature'); announce('Signing…', { sticky: true, busy: true }); },
      processDidFinish: (data) => (data?.reason === 'refused' ? this.finished(data) : this.signed(data)),
      documentCompleted: () => this.finished({ reason: 'completed' }),
      processDidFail: (data) => {
        this.setPhase('editing');
        announce('');
        app.reloadDocument();
        this.showError(data || {}, 'Signing failed');
      },
      signingProcessConfirmed: (data) => { announce(`Signed ${data?.field || ''}`.trim()); app.reloadDocument(); },
      signingProcessCancelled: () => {
        this.setPhase('editing');
        app.fields.endChoice();
        announce('Signing cancelled');
        // A prepared revision was removed (a preview cancelled): show the document as it is again.
        app.reloadDocument();
      },
      signingProcessFailed: (data) => {
        // A drawing refused as too short (−132): the capture dialog opens again with the reason.
        if ((data?.code ?? data?.signoCode) === -132) return;
        this.setPhase('editing');
        announce('');
        this.showError({ message: data?.text || data?.message, signoCode: data?.code ?? data?.signoCode }, 'Signing failed');
      },
      signatureFieldCreated: () => { announce('Signature field created'); app.reloadDocument(); },
      // Declared after load: the fields get their photo buttons now, not at the next reload.
      photoFieldsDeclared: () => app.reloadDocument(),
      photoPlaced: (data) => {
        if (data?.field) app.fields.placedPhotos.add(data.field);
        announce('Photo placed');
        app.reloadDocument();
      },
      photoCaptureFailed: (data) => this.showError({ message: data?.message || data?.text, signoCode: data?.signoCode ?? data?.code }, 'The photo could not be placed'),
      documentSaved: () => announce('Saved'),
      phase: (data) => this.setPhase(data?.phase),
      fieldChanged: (data) => app.fields.update(data),
      documentDidLoad: () => app.loadDocument(),
      pageChanged: (data) => {
        const page = data?.page;
        if (typeof page === 'number' && page !== app.pages.current) app.pages.goTo(page);
      },
    };
  }

  /** The capture step: the dialog opens again, with the reason, as long as the session refuses
   *  the drawing and still waits for one (a too-short signature, −132, is not a dead end). */
  async capture(data) {
    const app = this.app;
    this.setPhase('capturingSignature');
    announce('');
    // signo's sign button moves on to the next unsigned field: show where it is.
    if (data?.field) app.fields.scrollTo(data.field);
    const configuration = data?.capture || data?.configuration || data || {};
    const title = data?.field ? `Sign “${data.field}”` : 'Sign here';
    let error = null;
    for (;;) {
      const result = await captureSignature(configuration, { title, error, signer: app.state.signer, fields: app.fields.fields });
      if (!result) {
        await this.call('/api/cancel');
        return;
      }
      try {
        const body = Array.isArray(result) ? { strokes: result } : { name: result.name };
        this.setPhase((await post('/api/capture', body))?.phase);
        return;
      } catch (failure) {
        const phase = await get('/api/state').then((state) => state.phase, () => null);
        if (phase !== 'capturingSignature') {
          this.setPhase(phase);
          this.showError(failure, 'Signing failed');
          return;
        }
        const code = failure.signoCode !== undefined && failure.signoCode !== null ? ` (code ${failure.signoCode})` : '';
        const message = failure.message || 'the signature was refused';
        error = `${message[0].toUpperCase()}${message.slice(1)}${code}. Please sign again.`;
      }
    }
  }

  /** Shows again the step the session waits on (after a reload, or when another tab moved it on):
   *  every phase has its dialog back, none is a dead end. */
  async resume(state) {
    const app = this.app;
    const handlers = this.handlers();
    // The server stopped while a signature was under way: say what became of it.
    const recovery = state?.recovery;
    if (recovery?.outcome === 'confirmAgain' && state.phase === 'confirming') {
      return handlers.onConfirmationRequired({ page: state.page, url: state.url, note: recovery.message });
    }
    if (recovery?.outcome === 'awaitingCMS' && state.phase === 'awaitingSignature') {
      // The signature is still awaited from the host: the person may wait, or drop it and sign again.
      const choice = await modal({
        title: 'Your signature is still awaited', id: 'recovery-dialog',
        body: [h('p', { id: 'recovery-note', textContent: recovery.message })],
        actions: [{ label: 'Cancel the signature', value: 'cancel' }, { label: 'Keep waiting', value: 'wait', primary: true }],
        cancelValue: 'wait',
      });
      if (choice === 'cancel') return this.call('/api/cancel');
      return this.resume({ ...state, recovery: null });
    }
    if (recovery?.message) {
      return modal({
        title: recovery.outcome === 'signed' ? 'Your signature was made' : 'Your signature was not made', id: 'recovery-dialog',
        body: [h('p', { id: 'recovery-note', textContent: recovery.message })],
        actions: [{ label: 'OK', value: 'ok', primary: true }], cancelValue: 'ok',
      }).then(() => (state.phase === 'editing' ? undefined : this.resume({ ...state, recovery: null })));
    }
    switch (state?.phase) {
      case 'finished': return this.finished({ reason: state.reason });
      case 'notes': return app.notes.enter(state.mode);
      case 'selectingField':
        return handlers.selectSignatureFormField({ fields: (state.candidates || []).map((name) => ({ name })) });
      case 'capturingSignature': return this.capture({ field: state.field, capture: state.capture });
      case 'choosingSavedSignature': {
        const ids = new Set(state.ids || []);
        const signatures = await get('/api/signatures').catch(() => []);
        return handlers.savedSignatureSelectionRequired({ signatures: (signatures || []).filter((s) => ids.has(s.id)) });
      }
      case 'positioning': return handlers.signatureRequiresPositioning({ page: state.page ?? 0, rect: state.rect });
      case 'confirming': return handlers.onConfirmationRequired({
        page: state.page, url: state.url, pages: state.pages, changedPageCount: state.changedPageCount, refusal: state.refusal,
      });
      case 'preparing': case 'awaitingSignature':
        this.setPhase(state.phase);
        return announce('Signing…', { sticky: true, busy: true });
      default: return undefined;
    }
  }

  static downloadLink(data) {
    return h('a', {
      id: 'download-link', className: 'button primary', href: url(data?.url || '/api/download'), download: true,
    }, h('span', { textContent: 'Download the signed document' }));
  }

  /** A signature that accepts: the session is editing again, so the next field or signer can sign;
   *  "Finish" completes the document (POST /api/complete). */
  async signed(data) {
    this.setPhase('editing');
    announce('Signed');
    this.app.reloadDocument();
    const size = data?.size ? ` (${Math.round(data.size / 1024)} KB)` : '';
    const choice = await modal({
      title: 'Signed', id: 'signed-dialog',
      body: [
        h('p', { textContent: `The document was signed${size}. Another field or another signer can sign it now, or finish it.` }),
        Workflow.downloadLink(data),
      ],
      actions: [{ label: 'Finish', value: 'complete' }, { label: 'Continue', value: 'continue', primary: true }],
      cancelValue: 'continue',
    });
    if (choice === 'complete') await this.call('/api/complete');
  }

  /** Finish, from the toolbar: asks first, then completes the document (POST /api/complete). */
  async finish() {
    const choice = await modal({
      title: 'Finish the document?', id: 'finish-dialog',
      body: [h('p', { textContent: 'Once finished, nobody can sign or change it any more. Its signatures are kept as they are.' })],
      actions: [{ label: 'Cancel', value: 'cancel' }, { label: 'Finish', value: 'complete', primary: true }],
    });
    if (choice === 'complete') await this.call('/api/complete');
  }

  /**
   * A preview page in a frame that marks its empty fields as the viewer shows them (a dashed box),
   * over the image and apart from it: the image is what is signed, the marks say where nothing was
   * entered.
   */
  previewFrame(index, image) {
    const element = this.app.pages.elements[index];
    const matrix = this.app.pages.matrix(index);
    const marks = [];
    if (element && matrix && element.clientWidth && element.clientHeight) {
      for (const field of this.app.fields.fields.values()) {
        if (field.kind === 'signature' || field.readOnly || (field.value && field.value !== 'Off')) continue;
        for (const widget of (field.widgets || []).filter((w) => w.page === index && w.rect)) {
          const box = viewBox(matrix, widget.rect);
          const mark = h('span', { className: 'preview-empty', 'aria-hidden': 'true', title: `${field.label || field.name}: empty` });
          for (const [name, value] of [['left', box.x / element.clientWidth], ['top', box.y / element.clientHeight],
            ['width', box.w / element.clientWidth], ['height', box.h / element.clientHeight]]) {
            mark.style.setProperty(name, `${(value * 100).toFixed(3)}%`);
          }
          marks.push(mark);
        }
      }
    }
    return h('div', { className: 'preview-frame' }, image, marks);
  }

  /** The document is complete (refused, or finished after its signatures): nothing more changes it. */
  finished(data) {
    this.setPhase('finished');
    announce('');
    document.body.classList.add('finished');
    const reason = data?.reason === 'refused' ? 'The document was refused and signed.'
      : data?.reason === 'completed' ? 'The document is complete.' : 'Done.';
    this.app.reloadDocument();
    return modal({
      title: data?.reason === 'refused' ? 'Refused' : 'Complete', id: 'finished-dialog',
      body: [h('p', { textContent: reason + (data?.size ? ` (${Math.round(data.size / 1024)} KB)` : '') }), Workflow.downloadLink(data)],
      actions: [{ label: 'Close', value: 'close', primary: true }], cancelValue: 'close',
    });
  }

  /** The saved-signature choice: resolves with an id or null. */
  chooseSaved(signatures) {
    return modal({
      title: 'Choose your signature', id: 'choose-signature-dialog', cancelValue: null,
      body: [h('ul', { className: 'signature-list' }, signatures.map((signature, i) =>
        h('li', {}, h('button', {
          type: 'button', className: 'signature-choice', 'data-id': signature.id,
          'aria-label': `Signature ${i + 1}${signature.created ? ', saved ' + signature.created : ''}`,
          onclick: (event) => event.currentTarget.closest('dialog').chosen(signature.id),
        }, strokesPreview(signature.strokes || [])))))],
      actions: [{ label: 'Cancel', value: null }],
      setup: (dialog, close) => { dialog.chosen = close; },
    });
  }

  /** The saved-signature settings (WYSIWYS openSignatureSettings): previews, delete, add. */
  async manageSignatures() {
    let signatures = [];
    const listElement = h('ul', { className: 'signature-list', id: 'saved-signatures' });
    const refresh = async () => {
      try { signatures = (await get('/api/signatures')) || []; } catch (error) { this.showError(error); }
      listElement.replaceChildren(...signatures.map((signature, i) => h('li', {},
        strokesPreview(signature.strokes || []),
        h('button', {
          type: 'button', className: 'delete', 'aria-label': `Delete signature ${i + 1}`, textContent: 'Delete',
          onclick: async () => {
            try { await del('/api/signatures/' + signature.id); } catch (error) { this.showError(error); }
            refresh();
          },
        }))));
      if (!signatures.length) listElement.append(h('li', { className: 'empty', textContent: 'No saved signatures.' }));
    };
    await refresh();
    await modal({
      title: 'Your signatures', id: 'signatures-dialog', cancelValue: 'close', body: [listElement],
      actions: [
        {
          label: 'Add a signature', value: 'add', onClick: async () => {
            const strokes = await captureSignature(this.app.state.capture || {}, { title: 'Add a signature', typing: false });
            if (strokes) {
              try { await post('/api/signatures', { strokes }); } catch (error) { this.showError(error); }
            }
            refresh();
          },
        },
        { label: 'Close', value: 'close', primary: true },
      ],
    });
  }

  /** signo's "signature fields" dialog: the document's signature fields, to go to or sign. */
  async signatureFieldList() {
    const fields = this.app.fields.signatureFields();
    const choice = await modal({
      title: 'Signature fields', id: 'fields-dialog', cancelValue: null,
      body: [fields.length ? h('ul', { className: 'field-list' }, fields.map((field) => h('li', {},
        h('button', {
          type: 'button', 'data-field': field.name,
          onclick: (event) => event.currentTarget.closest('dialog').chosen(field.name),
        }, `${field.label}${field.signed ? ' — signed' : ''}`))))
        : h('p', { textContent: 'This document has no signature fields.' })],
      actions: [
        { label: 'New signature field…', value: 'new' },
        { label: 'Close', value: null, primary: true },
      ],
      setup: (dialog, close) => { dialog.chosen = close; },
    });
    if (choice === 'new') return this.app.newSignatureField();
    const field = fields.find((f) => f.name === choice);
    if (!field) return;
    const widget = field.widgets[0];
    if (widget) this.app.pages.goTo(widget.page, widget.rect);
    if (!field.signed) await this.sign(field.name);
  }
}
