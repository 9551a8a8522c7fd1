/* The analysis board and the board editor (docs/viewer.md). Both work without this
   script, by their links and forms; with it, the board is swapped in place: the server
   draws it (the position page's /position-board/ID, the game page's the same, the
   editor's /board-editor/board answer JSON), the script only swaps what it answers in.
   It holds no words: every text it shows comes from the server. */
(function () {
  "use strict";

  function getJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (answer) {
        if (!answer.ok) { throw new Error(String(answer.status)); }
        return answer.json();
      });
  }

  /* A candidate's link: the board after it, its steps as arrows. */
  function candidates() {
    var board = document.getElementById("analysis-board");
    if (!board) { return; }
    document.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a[data-board]") : null;
      if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      getJSON(link.getAttribute("data-board")).then(function (shown) {
        board.innerHTML = shown.svg;
        var words = document.getElementById("shown-play");
        if (words) { words.innerHTML = shown.shown; }
        document.querySelectorAll("a[data-board]").forEach(function (other) {
          var row = other.closest("tr");
          if (other === link) {
            other.setAttribute("aria-current", "true");
            if (row) { row.classList.add("shown"); }
          } else {
            other.removeAttribute("aria-current");
            if (row) { row.classList.remove("shown"); }
          }
        });
        if (window.history && history.replaceState) { history.replaceState(null, "", link.href); }
      }).catch(function () { window.location.href = link.href; });
    }, true);
  }

  /* The editor: a click on a point adds a man of the chosen colour, shift-click or a
     right click (or the "removes" mode) takes one away; the server answers the new
     position, whose ID, board, words and links the script puts in place. */
  function editor() {
    var root = document.querySelector(".board-editor");
    var form = document.getElementById("editor-form");
    if (!root || !form) { return; }
    var board = document.getElementById("editor-board");
    var idField = document.getElementById("editor-id");
    var error = document.getElementById("editor-error");
    var rank = document.getElementById("editor-rank");

    function ask(extra) {
      var data = new FormData(form);
      data.delete("do"); data.delete("point"); data.delete("mode");
      Object.keys(extra).forEach(function (name) { data.set(name, extra[name]); });
      var query = new URLSearchParams(data).toString();
      getJSON(root.getAttribute("data-board-url") + "?" + query).then(function (drawn) {
        board.innerHTML = drawn.svg;
        idField.value = drawn.id;
        form.querySelector("input[name=seen]").value = data.get("player");
        error.textContent = drawn.error || "";
        error.hidden = !drawn.error;
        document.getElementById("editor-description").textContent = drawn.description;
        document.getElementById("editor-position").href = drawn.position;
        rank.action = drawn.position.split("?")[0];
        rank.querySelector("input[name=player]").value = data.get("player");
        rank.querySelector("input[name=variant]").value = data.get("variant");
        if (window.history && history.replaceState) { history.replaceState(null, "", drawn.editor); }
      }).catch(function () { form.submit(); });
    }

    function pointOf(target) {
      var place = target.closest ? target.closest("[data-point]") : null;
      var point = place ? place.getAttribute("data-point") : null;
      return point === "off" ? null : point;
    }

    function click(event, remove) {
      var point = pointOf(event.target);
      if (!point) { return; }
      event.preventDefault();
      var mode = form.querySelector("input[name=mode]:checked");
      var removing = remove || event.shiftKey || (mode && mode.value === "remove");
      ask({ "do": removing ? "remove" : "add", point: point });
    }

    board.addEventListener("click", function (event) { click(event, false); });
    board.addEventListener("contextmenu", function (event) { click(event, true); });
    form.querySelectorAll("input[name=player], select[name=variant]").forEach(function (field) {
      field.addEventListener("change", function () { ask({}); });
    });
    /* The dice picker: each die clicked is typed into the roll's field. */
    var dice = rank.querySelector("input[name=dice]");
    rank.querySelectorAll("button[data-die]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        dice.value = (dice.value.length >= 2 ? "" : dice.value) + button.getAttribute("data-die");
      });
    });
  }

  function start() { candidates(); editor(); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
