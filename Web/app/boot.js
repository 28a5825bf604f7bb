// Starts the first API requests while the viewer's modules load (a classic script, run at once):
// the state, pages and fields at once, and — as soon as the state is known and the page laid out —
// the layout the viewer will ask for first, so the first tile can be requested sooner.
(function () {
  'use strict';
  var token = new URLSearchParams(location.search).get('token') || sessionStorage.getItem('autograph-token') || '';
  var headers = token ? { Authorization: 'Bearer ' + token } : {};
  function load(path) {
    return fetch(path, { headers: headers, credentials: 'same-origin' });
  }
  // The query of `GET /api/layout`; layout.js builds its queries with this too, so that they match.
  function layoutQuery(options) {
    var search = new URLSearchParams();
    search.set('width', String(Math.max(1, Math.round(options.width))));
    search.set('height', String(Math.max(1, Math.round(options.height))));
    search.set('continuous', options.continuous ? '1' : '0');
    search.set('vertical', options.vertical ? '1' : '0');
    search.set('spreads', '0');
    search.set('cover', '0');
    search.set('spacing', String(options.spacing));
    search.set('fit', options.fit);
    search.set('zoom', String(options.zoom));
    return search.toString();
  }
  var boot = { state: load('/api/state'), pages: load('/api/pages'), fields: load('/api/fields'), layoutQuery: layoutQuery };
  window.autographBoot = boot;
  var ready = new Promise(function (resolve) {
    if (document.readyState !== 'loading') resolve();
    else document.addEventListener('DOMContentLoaded', resolve);
  });
  Promise.all([boot.state.then(function (response) { return response.clone().json(); }), ready]).then(function (results) {
    var viewer = (results[0] && results[0].viewer) || {};
    var viewport = document.getElementById('viewport');
    var toolbar = document.getElementById('toolbar');
    if (!viewport || !toolbar) return;
    // What viewer.js's applyState will do to the page's frame, done now to measure the viewport.
    toolbar.hidden = viewer.showsToolbar === false;
    document.documentElement.style.setProperty('--toolbar-height', Math.max(36, viewer.toolbarHeight || 50) + 'px');
    // As pages.js lays out a new document: fit width when scrolling continuously down, else the page.
    var continuous = viewer.continuousScrolling == null ? true : viewer.continuousScrolling;
    var vertical = viewer.verticalScrolling == null ? true : viewer.verticalScrolling;
    var query = layoutQuery({
      width: viewport.clientWidth, height: viewport.clientHeight, continuous: continuous, vertical: vertical,
      spacing: 16, fit: continuous && vertical ? 'width' : 'page', zoom: 1,
    });
    boot.layout = { query: query, response: load('/api/layout?' + query) };
  }).catch(function () {});
})();
