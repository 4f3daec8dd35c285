// Follow the library: poll /version and reload when it changes (never
// while the person is typing in a form).
(function () {
  var last = null;
  function busy() {
    var a = document.activeElement;
    return a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA");
  }
  function poll() {
    fetch("/version", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (v) {
        if (v === null) return;
        if (last !== null && v !== last && !busy()) { location.reload(); return; }
        last = v;
      })
      .catch(function () {})
      .finally(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
