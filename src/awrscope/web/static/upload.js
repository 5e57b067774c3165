// Drag and drop onto the upload zone: the dropped files become the form's files and are sent at once.
(function () {
  var zone = document.getElementById("dropzone");
  var input = document.getElementById("files");
  var form = document.getElementById("upload-form");
  var chosen = document.getElementById("chosen");
  if (!zone || !input || !form) return;
  function show() {
    var names = Array.prototype.map.call(input.files, function (f) { return f.name; });
    chosen.textContent = names.length ? names.length + " file(s): " + names.join(", ") : "";
  }
  ["dragenter", "dragover"].forEach(function (ev) {
    zone.addEventListener(ev, function (e) { e.preventDefault(); zone.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (ev) {
    zone.addEventListener(ev, function (e) { e.preventDefault(); zone.classList.remove("over"); });
  });
  zone.addEventListener("drop", function (e) {
    if (!e.dataTransfer || !e.dataTransfer.files.length) return;
    input.files = e.dataTransfer.files;
    show();
    form.submit();
  });
  input.addEventListener("change", show);
  form.addEventListener("submit", function () {
    var b = document.getElementById("upload-button");
    if (b) { b.disabled = true; b.textContent = "Analysing…"; }
  });
  var cmp = document.getElementById("compare-form");
  if (cmp) cmp.addEventListener("submit", function (e) {
    var ticked = cmp.querySelectorAll("input[name=id]:checked");
    if (ticked.length !== 2) { e.preventDefault(); alert("Tick exactly two reports to compare them."); }
  });
})();
