// Starts the first API requests while the viewer's modules load (a classic script, run at once).
(function () {
  'use strict';
  var token = new URLSearchParams(location.search).get('token') || sessionStorage.getItem('autograph-token') || '';
  var headers = token ? { Authorization: 'Bearer ' + token } : {};
  function load(path) {
    return fetch(path, { headers: headers, credentials: 'same-origin' });
  }
  window.autographBoot = { state: load('/api/state'), pages: load('/api/pages'), fields: load('/api/fields') };
})();
