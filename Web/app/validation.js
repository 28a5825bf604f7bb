// The signature panel: each signature's verdict (GET /api/validation), what changed after it, and
// the document as it was signed ("show signed version" draws that revision's pages) with the
// changed regions outlined over today's (GET /api/validation/diff).
import { get } from './api.js';
import { h, modal } from './dialogs.js';

// Each verdict's word and tone: good (green), warn (amber: signed, but the signer is not trusted)
// or bad (red: broken, or changed after signing as nothing permits).
const VERDICTS = {
  valid: { label: 'Valid', tone: 'good' },
  validWithAllowedChanges: { label: 'Valid, changed as permitted', tone: 'good' },
  untrusted: { label: 'Signed — signer not trusted', tone: 'warn' },
  modified: { label: 'Changed after signing', tone: 'bad' },
  invalid: { label: 'Not valid', tone: 'bad' },
};

/** What the verdict means, in one sentence for people (the technical reasons are under Details). */
function explanation(signature) {
  switch (signature.verdict) {
    case 'valid':
    case 'validWithAllowedChanges': {
      if (signature.trustedBy === 'demo') {
        return 'It was signed with this server’s demo certificate, which nothing else trusts: other PDF readers will say the signer is not trusted.';
      }
      const since = signature.verdict === 'valid' ? 'nothing signed has changed' : 'it was changed since only in ways the signature permits';
      return `The signer’s certificate comes from an authority this server trusts, and ${since}.`;
    }
    case 'untrusted':
      return 'The signed content is unchanged, but who signed it cannot be confirmed: the signer’s certificate does not come from an authority this server trusts.';
    case 'modified':
      return 'The document was changed after it was signed, in a way the signature does not permit.';
    default:
      return 'The signature is broken: what was signed has changed, or the signature does not match it.';
  }
}

/** The technical detail behind the verdict (certificate, OpenSSL's reason, problems), folded. */
function details(signature) {
  const signer = signature.signer || {};
  const trust = signature.trusted
    ? `yes${signature.trustedBy === 'demo' ? ' (this demo server’s own root only)' : ''}`
    : `no: ${signature.trustReason || ''}`;
  const problems = signature.problems || [];
  return h('details', { className: 'signature-details' },
    h('summary', { textContent: 'Details' }),
    h('p', { className: 'summary', textContent: signature.summary || '' }),
    h('dl', {},
      h('dt', { textContent: 'Trusted' }), h('dd', { className: 'trust', textContent: trust }),
      h('dt', { textContent: 'Issuer' }), h('dd', { textContent: signer.issuer || 'unknown' }),
      h('dt', { textContent: 'Serial' }), h('dd', { textContent: signer.serial || 'unknown' }),
      h('dt', { textContent: 'Signed bytes' }), h('dd', { textContent: signature.intact ? 'unchanged' : 'changed' }),
      h('dt', { textContent: 'CMS signature' }), h('dd', { textContent: signature.valid ? 'verifies' : 'does not verify' }),
      h('dt', { textContent: 'Coverage' }), h('dd', { textContent: signature.coverage || '' }),
    ),
    problems.length ? h('ul', { className: 'problems' }, problems.map((problem) => h('li', { textContent: problem }))) : null,
  );
}

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
    } catch {
      this.result = { revisions: 1, signatures: [] };
    }
    const signatures = this.result.signatures || [];
    this.button.hidden = signatures.length === 0;
    const tones = signatures.map((s) => VERDICTS[s.verdict]?.tone || 'bad');
    const tone = tones.includes('bad') ? 'bad' : tones.includes('warn') ? 'warn' : 'good';
    const said = { bad: 'not all valid', warn: 'signed, a signer not trusted', good: 'all valid' }[tone];
    this.button.dataset.tone = tone;
    this.button.querySelector('span').textContent = `Signatures (${signatures.length})`;
    this.button.setAttribute('aria-label', `Signatures: ${signatures.length}, ${said}`);
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
      const demo = signature.trustedBy === 'demo' && verdict.tone === 'good';
      return h('li', {
        className: 'signature-item', 'data-verdict': signature.verdict, 'data-tone': verdict.tone,
        'data-field': signature.field, 'data-trusted-by': signature.trustedBy || undefined,
      },
        h('div', { className: 'verdict', 'data-tone': verdict.tone, textContent: verdict.label },
          demo ? h('span', { className: 'trust-scope', textContent: ' — trusted by this demo server only' }) : null),
        h('p', { className: 'explanation', textContent: explanation(signature) }),
        h('dl', {},
          h('dt', { textContent: 'Signer' }), h('dd', { textContent: signature.signer?.subject || 'unknown' }),
          h('dt', { textContent: 'Time (claimed)' }), h('dd', { textContent: pdfDate(signature.signingTime) || 'none given' }),
          h('dt', { textContent: 'Revision' }), h('dd', { textContent: revision === null ? 'unknown' : `${revision} of ${last}` }),
        ),
        changes.length
          ? h('ul', { className: 'changes' }, changes.slice(0, 50).map((change) => h('li', {
            'data-allowed': change.allowed ? '1' : '0',
            textContent: `${change.page != null ? `Page ${change.page + 1}: ` : ''}${change.reason}${change.allowed ? '' : ' (not allowed)'}`,
          })))
          : h('p', { className: 'no-changes', textContent: 'No changes since signing.' }),
        details(signature),
        h('div', { className: 'signature-actions' }, actions),
      );
    });
    const choice = await modal({
      title: signatures.length === 1 ? 'Signature' : `Signatures (${signatures.length})`,
      id: 'validation-panel', className: 'validation',
      body: [h('ol', { className: 'validation-list' }, items)],
      actions: [{ label: 'Close', value: 'close' }],
      cancelValue: 'close',
      setup: (_dialog, close) => { this.close = close; },
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
      } catch {
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
