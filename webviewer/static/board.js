/* The analysis board and the board editor (docs/viewer.md). Both work without this
   script, by their links and forms; with it, the board is swapped in place: the server
   draws it (the position page's /position-board/ID and the editor's /board-editor/board
   answer JSON; on the game page, the candidate's own page), the script only swaps in
   what it answers.
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

  /* The game page: the candidates viewer.js draws while stepping get the links the
     server gives its own (the board after each play); a click on one fetches that page
     and swaps in its board, caption and candidates (the server draws them). */
  function gameCandidates() {
    var slot = document.querySelector(".analysis-slot[data-before]");
    if (!slot) { return; }
    function linkPlays() {
      var section = slot.querySelector(".candidates");
      if (!section) { return; }
      section.querySelectorAll("tbody tr td:nth-child(2)").forEach(function (cell) {
        var text = cell.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) { return; }
        var play = text.textContent;
        var link = document.createElement("a");
        link.setAttribute("href", slot.getAttribute("data-before") + "ply=" + section.getAttribute("data-ply")
          + "&show=" + encodeURIComponent(play).replace(/%2F/g, "/") + slot.getAttribute("data-after"));
        link.setAttribute("class", "show-play");
        link.textContent = play;
        cell.replaceChild(link, text);
      });
    }
    new MutationObserver(linkPlays).observe(slot, { childList: true });
    linkPlays();
    window.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest(".analysis-slot a.show-play") : null;
      if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      fetch(link.href, { credentials: "same-origin" }).then(function (answer) {
        if (!answer.ok) { throw new Error(String(answer.status)); }
        return answer.text();
      }).then(function (text) {
        var page = new DOMParser().parseFromString(text, "text/html");
        [["figure.board svg", "outerHTML"], [".said", "textContent"], [".description", "textContent"],
         [".analysis-slot", "innerHTML"]].forEach(function (part) {
          var here = document.querySelector(part[0]), there = page.querySelector(part[0]);
          if (here && there) { here[part[1]] = there[part[1]]; }
        });
        if (window.history && history.replaceState) { history.replaceState(history.state, "", link.href); }
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
        document.getElementById("editor-pips").textContent = drawn.pips;
        points(drawn.points);
        document.getElementById("editor-position").href = drawn.position;
        rank.action = drawn.position.split("?")[0];
        rank.querySelector("input[name=player]").value = data.get("player");
        rank.querySelector("input[name=variant]").value = data.get("variant");
        if (window.history && history.replaceState) { history.replaceState(null, "", drawn.editor); }
      }).catch(function () { form.submit(); });
    }

    /* The form's points, numbered as the board is (for the player on roll): White's
       number sent, his shown; the point chosen kept. */
    function points(list) {
      var select = document.getElementById("editor-point");
      var chosen = select.value;
      var bar = select.querySelector("option[value=bar]");
      select.replaceChildren();
      list.forEach(function (point) {
        var option = document.createElement("option");
        option.value = String(point[0]);
        option.textContent = String(point[1]);
        select.appendChild(option);
      });
      if (bar) { select.appendChild(bar); }
      select.value = chosen;
    }

    function pointOf(target) {
      var place = target.closest ? target.closest("[data-point]") : null;
      var point = place ? place.getAttribute("data-point") : null;
      return point === "off" ? null : point;
    }

    function click(event, remove) {
      var point = pointOf(event.target);
      if (!point || (point === "bar" && !form.querySelector("option[value=bar]"))) { return; }
      event.preventDefault();
      var mode = form.querySelector("input[name=mode]:checked");
      var removing = remove || event.shiftKey || (mode && mode.value === "remove");
      ask({ "do": removing ? "remove" : "add", point: point });
    }

    board.addEventListener("click", function (event) { click(event, false); });
    board.addEventListener("contextmenu", function (event) { click(event, true); });
    form.querySelectorAll("input[name=player]").forEach(function (field) {
      field.addEventListener("change", function () { ask({}); });
    });
    /* another rule set: the page again (its points, its bar) */
    form.querySelector("select[name=variant]").addEventListener("change", function () { form.submit(); });
    /* The dice picker: each die clicked is typed into the roll's field. */
    var dice = rank.querySelector("input[name=dice]");
    rank.querySelectorAll("button[data-die]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        dice.value = (dice.value.length >= 2 ? "" : dice.value) + button.getAttribute("data-die");
      });
    });
  }

  /* The game page's "Edit this position" follows the position link viewer.js keeps
     up to date as it steps: the same position ID and player, in the board editor. */
  function editLink() {
    var edit = document.querySelector("a.edit-position");
    var position = document.querySelector("a.position");
    if (!edit || !position) { return; }
    edit.addEventListener("click", function () {
      var from = new URL(position.href, window.location.href);
      var to = new URL(edit.href, window.location.href);
      /* the whole ID after /position/: an ID is base64 and may hold slashes */
      to.searchParams.set("id", decodeURIComponent(from.pathname.replace(/^.*?\/position\//, "")));
      to.searchParams.set("player", from.searchParams.get("player") || "W");
      edit.href = to.toString();
    });
  }

  function start() { candidates(); gameCandidates(); editLink(); editor(); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
