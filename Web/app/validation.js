// The signature panel: each signature's verdict (GET /api/validation), what changed after it, and
// the document as it was signed ("show signed version" draws that revision's pages) with the
// changed regions outlined over today's (GET /api/validation/diff).
import { get } from './api.js';
import { h, modal } from './dialogs.js';

const VERDICTS = {
  valid: { label: 'Valid', tone: 'good' },
  validWithAllowedChanges: { label: 'Valid, changed as permitted', tone: 'good' },
  modified: { label: 'Changed after signing', tone: 'bad' },
  invalid: { label: 'Not valid', tone: 'bad' },
};

export class ValidationPanel {
  constructor(app, button) {
    this.app = app;
    this.button = button;
    this.result = { revisions: 1, signatures: [] };
    this.shown = null;
    this.overlays = [];
  }

  /** Reads the verdicts again (a new revision, another document). */
  async refresh() {
    try {
      this.result = (await get('/api/validation')) || { revisions: 1, signatures: [] };
    } catch (error) {
      this.result = { revisions: 1, signatures: [] };
    }
    const signatures = this.result.signatures || [];
    this.button.hidden = signatures.length === 0;
    const bad = signatures.some((s) => VERDICTS[s.verdict]?.tone !== 'good');
    this.button.dataset.tone = bad ? 'bad' : 'good';
    this.button.querySelector('span').textContent = `Signatures (${signatures.length})`;
    this.button.setAttribute('aria-label', `Signatures: ${signatures.length}, ${bad ? 'not all valid' : 'all valid'}`);
    document.body.dataset.signatures = String(signatures.length);
    if (this.shown !== null && this.shown >= (this.result.revisions || 1) - 1) this.showCurrent();
  }

  /** Opens the panel. */
  async open() {
    const signatures = this.result.signatures || [];
    const last = (this.result.revisions || 1) - 1;
    const items = signatures.map((signature, index) => {
      const verdict = VERDICTS[signature.verdict] || { label: signature.verdict, tone: 'bad' };
      const changes = (signature.changes || []).filter((change) => change.level !== 'none' || !change.allowed);
      const revision = signature.revision;
      const actions = [];
      if (revision !== null && revision !== undefined && revision < last) {
        actions.push(h('button', {
          type: 'button', className: 'primary', textContent: 'Show signed version',
          'data-action': `show-${index}`, onclick: () => this.close?.(`show-${index}`),
        }));
      }
      return h('li', { className: 'signature-item', 'data-verdict': signature.verdict, 'data-field': signature.field },
        h('div', { className: 'verdict', 'data-tone': verdict.tone, textContent: verdict.label }),
        h('p', { className: 'summary', textContent: signature.summary || '' }),
        h('dl', {},
          h('dt', { textContent: 'Signer' }), h('dd', { textContent: signature.signer?.subject || 'unknown' }),
          h('dt', { textContent: 'Time (claimed)' }), h('dd', { textContent: pdfDate(signature.signingTime) || 'none given' }),
          h('dt', { textContent: 'Trusted' }), h('dd', { textContent: signature.trusted ? 'yes' : `no: ${signature.trustReason || ''}` }),
          h('dt', { textContent: 'Revision' }), h('dd', { textContent: revision === null ? 'unknown' : `${revision} of ${last}` }),
        ),
        changes.length
          ? h('ul', { className: 'changes' }, changes.slice(0, 50).map((change) => h('li', {
            'data-allowed': change.allowed ? '1' : '0',
            textContent: `${change.page != null ? `Page ${change.page + 1}: ` : ''}${change.reason}${change.allowed ? '' : ' (not allowed)'}`,
          })))
          : h('p', { className: 'no-changes', textContent: 'No changes since signing.' }),
        h('div', { className: 'signature-actions' }, actions),
      );
    });
    const choice = await modal({
      title: signatures.length === 1 ? 'Signature' : `Signatures (${signatures.length})`,
      id: 'validation-panel', className: 'validation',
      body: [h('ol', { className: 'validation-list' }, items)],
      actions: [{ label: 'Close', value: 'close' }],
      cancelValue: 'close',
      setup: (dialog, close) => { this.close = close; },
    });
    this.close = null;
    const match = /^show-(\d+)$/.exec(choice || '');
    if (match) this.showSigned(Number(match[1]));
  }

  /** Draws the pages as signature `index` signed them, with the regions changed since outlined. */
  async showSigned(index) {
    const signature = this.result.signatures[index];
    if (!signature) return;
    this.shown = signature.revision;
    this.app.pages.showRevision(signature.revision);
    document.body.dataset.revision = String(signature.revision);
    const banner = document.getElementById('banner');
    banner.replaceChildren(
      h('span', { textContent: `The document as signed by ${signature.signer?.subject || 'an unknown signer'} (revision ${signature.revision}).` }),
      h('button', { type: 'button', id: 'show-current', textContent: 'Show current version', onclick: () => this.showCurrent() }),
    );
    banner.dataset.busy = '';
    banner.hidden = false;
    await this.outline(signature);
  }

  /** Outlines, on each changed page, the regions that differ from the signed version. */
  async outline(signature) {
    this.clearOverlays();
    // `page` counts from 0, as every page of the API does (null: no page).
    const pages = new Set((signature.changes || []).filter((c) => c.page != null && (c.level !== 'none' || !c.allowed)).map((c) => c.page));
    for (const page of pages) {
      if (page >= this.app.pages.pages.length) continue;
      let diff;
      try {
        diff = await get('/api/validation/diff', { revision: signature.revision, page });
      } catch (error) {
        continue;
      }
      if (this.shown !== signature.revision) return;
      for (const region of diff.regions || []) {
        const box = h('div', { className: 'changed-region', title: 'Changed since signing' });
        this.app.pages.anchor(box, page, [region.x, region.y, region.x + region.width, region.y + region.height]);
        this.overlays.push(box);
      }
    }
  }

  clearOverlays() {
    for (const box of this.overlays) box.remove();
    this.overlays = [];
  }

  /** Back to the document as it is now. */
  showCurrent() {
    this.shown = null;
    this.clearOverlays();
    this.app.pages.showRevision(null);
    delete document.body.dataset.revision;
    document.getElementById('banner').hidden = true;
  }
}

/** `D:20240101120000Z` → `2024-01-01 12:00`. */
function pdfDate(text) {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(text || '');
  if (!match) return text || '';
  const [, year, month = '01', day = '01', hour = '00', minute = '00'] = match;
  return `${year}-${month}-${day} ${hour}:${minute}`;
}
