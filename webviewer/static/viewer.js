// The game page without reloads. Every node is a server-rendered link, so the page works
// without this script; with it, stepping (the steps, the move list, the pip chart and the
// evaluation graph, the keys) redraws the page from the data it already holds (the JSON
// in #game-data: every node's board as pieces of SVG, its caption, its links; in
// #analysis-data, each judged ply's candidates), with no request, and the address follows (history.replaceState). Keys, wherever the focus is but in a text
// field: Left/Right step, Home/End jump, Up leaves a variation, f flips the board (a new
// page). The Autoplay button steps forward once a second until the end.
(function () {
  "use strict";
  var holder = document.getElementById("game-data");
  if (!holder) {
    return;
  }
  var data = JSON.parse(holder.textContent);
  // The engine's candidates of each judged ply, if the game is analysed.
  var analysis = document.getElementById("analysis-data");
  var candidates = analysis ? JSON.parse(analysis.textContent) : null;
  var words = JSON.parse(document.getElementById("page-words").textContent);  // the page's language
  var nodes = data.nodes;
  var current = nodeOf(window.location.href);
  var timer = null;

  function $(selector) {
    return document.querySelector("#live " + selector);
  }

  function url(node) {
    return data.before + nodes[node].address + data.after;
  }

  // The node a URL of this game names (its ply or path), or null.
  function nodeOf(href) {
    var target = new URL(href, window.location.href);
    if (target.origin !== window.location.origin || target.pathname !== window.location.pathname) {
      return null;
    }
    var params = target.searchParams;
    var flip = data.after.indexOf("flip=1") >= 0, roll = data.after.indexOf("numbers=roll") >= 0;
    if ((params.get("flip") === "1") !== flip || (params.get("numbers") === "roll") !== roll) {
      return null;  // another kind of page: followed as a link
    }
    var address = params.has("path") && params.get("path") ? "path=" + params.get("path")
      : params.has("ply") && params.get("ply") ? "ply=" + params.get("ply") : null;
    var last = 0;
    for (var i = 0; i < nodes.length; i += 1) {
      if (nodes[i].address === address) {
        return i;
      }
      if (nodes[i].main === null) {
        last = i;
      }
    }
    if (address === null || /^ply=\d+$/.test(address)) {
      return last;  // no ply, or one past the end: the end of the main line
    }
    return null;
  }

  // Whether a link asks for the board with its turn's best play (``best=1``), which the
  // page's data does not hold: such a link is followed.
  function showsBest(href) {
    return new URL(href, window.location.href).searchParams.get("best") === "1";
  }

  function element(tag, text, attributes) {
    var made = document.createElement(tag);
    if (text !== null) {
      made.textContent = text;
    }
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    return made;
  }

  // One of the page's words with its {names} filled in from ``values``.
  function say(text, values) {
    return text.replace(/\{(\w+)\}/g, function (whole, name) { return String(values[name]); });
  }

  // A number as the page's language writes it (its decimal sign), with three decimals;
  // toFixed rounds a tie away from zero, as the server's (webviewer/plumbing/language.py, fixed).
  function decimal(value) {
    return value.toFixed(3).replace(".", words.numbers.decimal);
  }

  function signed(value) {
    return (value < 0 ? "-" : "+") + decimal(Math.abs(value));
  }

  // A judged ply's candidates, drawn as the server's "candidates" macro draws them.
  function candidatesOf(ply) {
    var turn = candidates.turns[ply];
    if (!turn) {
      return null;
    }
    var section = element("section", null, {"class": "candidates", "aria-label": words.candidates,
                                            "data-ply": String(ply)});
    section.appendChild(element("h2", say(words.plyDice, {ply: ply, dice: turn.dice}) + " — "
                                    + (turn.level || candidates.engine)));
    var table = section.appendChild(element("table", null));
    var head = table.appendChild(element("thead", null)).appendChild(element("tr", null));
    words.columns.concat(turn.mixed ? [words.depth] : []).forEach(function (name) {
      head.appendChild(element("th", name, {scope: "col"}));
    });
    var body = table.appendChild(element("tbody", null));
    turn.plays.forEach(function (play) {
      var row = body.appendChild(element("tr", null, play[5] ? {"class": "played", "aria-current": "true"} : {}));
      row.appendChild(element("td", String(play[0])));
      var cell = row.appendChild(element("td", play[1]));
      if (play[5]) {
        cell.appendChild(document.createTextNode(" "));
        cell.appendChild(element("span", "(" + words.played + (turn.mark ? ", " + turn.mark : "") + ")",
                                 {"class": "played-mark"}));
      }
      row.appendChild(element("td", signed(play[2])));
      row.appendChild(element("td", play[3] === null ? "\u2014" : decimal(play[3])));  // another depth: none
      row.appendChild(element("td", say(words.numbers.percent, {value: (play[4] * 100).toFixed(0)})));
      if (turn.mixed) {
        row.appendChild(element("td", play[6] + "-ply"));
      }
    });
    if (turn.mixed) {
      section.appendChild(element("p", words.depthNote, {"class": "depth-note"}));
    }
    var notes = section.appendChild(element("p", (turn.forced ? words.forced + " "
      : say(words.ranks, {rank: turn.rank, legal: turn.legal})
        + (turn.loss ? say(words.losing, {loss: decimal(turn.loss)}) : "") + ". ")
      + (turn.luck === null ? "" : say(words.luck, {luck: signed(turn.luck)}) + " "), {"class": "candidate-notes"}));
    if (turn.rank !== 1 && turn.best !== turn.played) {
      notes.appendChild(element("a", say(words.showBest, {play: turn.best}),
                                {href: data.before + "ply=" + ply + "&best=1" + data.after, "class": "best"}));
    }
    return section;
  }

  function setLink(link, node) {
    if (!link) {
      return;
    }
    if (node === null || node === undefined) {
      link.removeAttribute("href");
      link.setAttribute("aria-disabled", "true");
    } else {
      link.href = url(node);
      link.removeAttribute("aria-disabled");
    }
  }

  // Keeps the current turn in view inside the move list's own box (the page stays put).
  function keepInView(list, entry) {
    var top = entry.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    var bottom = top + entry.offsetHeight;
    if (top < list.scrollTop) {
      list.scrollTop = Math.max(0, top - 8);
    } else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight + 8;
    }
  }

  function show(index) {
    var node = nodes[index];
    current = index;
    var svg = $("figure.board svg");
    svg.innerHTML = node.board.map(function (piece) { return data.pieces[piece]; }).join("");
    $(".where").textContent = node.where;
    $(".in-variation").hidden = node.main === null;
    $(".said").textContent = node.caption;
    $(".pips").textContent = say(words.pips, {white: node.pips[0], black: node.pips[1]});
    var position = $("a.position");
    position.href = node.position;
    position.textContent = node.id;
    $(".description").textContent = node.words;
    setLink($('.steps a[rel="first"]'), 0);
    setLink($('.steps a[rel="prev"]'), node.parent);
    setLink($('.steps a[rel="next"]'), node.next);
    setLink($('.steps a[rel="last"]'), node.end);
    setLink($('a[rel="up"]'), node.main);
    $('a[rel="up"]').hidden = node.main === null;
    $("a.flip").href = data.before + node.address + data.flipAfter;
    $("a.numbers").href = data.before + node.address + data.numbersAfter;
    var list = $(".movelist");
    var was = list.querySelector('[aria-current="true"]');
    if (was) {
      was.removeAttribute("aria-current");
    }
    var entry = list.querySelector('a.move[data-node="' + index + '"]');
    if (entry) {
      entry.setAttribute("aria-current", "true");
      keepInView(list, entry);
    }
    ["pip-chart", "evaluation"].forEach(function (chart) {
      document.querySelectorAll("#live ." + chart + " rect.band").forEach(function (band, ply) {
        band.setAttribute("fill", node.main === null && ply === node.ply ? "#2f7de1" : "transparent");
      });
    });
    var slot = $(".analysis-slot");
    if (slot && candidates) {
      var drawn = node.main === null ? candidatesOf(node.ply) : null;
      slot.replaceChildren.apply(slot, drawn ? [drawn] : []);
    }
    document.getElementById("announce").textContent = say(words.labelled, {label: node.where, value: node.caption});
    history.replaceState({node: index}, "", url(index));
  }

  function step(rel) {
    var node = nodes[current];
    var target = {prev: node.parent, next: node.next, first: 0, last: node.end, up: node.main}[rel];
    if (target === null || target === undefined || target === current) {
      return false;
    }
    show(target);
    return true;
  }

  // The button hiding the arrows (the next turn's best play, a candidate's steps): a
  // class on the board's figure, kept in this browser (localStorage) for every game.
  var ARROWS_KEY = "jacquet.hide-arrows";

  function arrowsHidden() {
    try {
      return window.localStorage.getItem(ARROWS_KEY) === "1";
    } catch (error) {
      return false;  // storage refused: the arrows stay
    }
  }

  function setUpArrows(hidden) {
    var button = $("button.hide-arrows");
    if (!button) {
      return;
    }
    button.hidden = false;
    button.setAttribute("aria-pressed", hidden ? "true" : "false");
    button.textContent = hidden ? button.dataset.show : button.dataset.hide;
    $("figure.board").classList.toggle("arrows-hidden", hidden);
  }

  function stop() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    setUpAutoplay();
  }

  function setUpAutoplay() {
    var button = $("button.autoplay");
    button.hidden = false;
    button.setAttribute("aria-pressed", timer === null ? "false" : "true");
    button.textContent = timer === null ? words.autoplay : words.stop;
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#live button.hide-arrows")) {
      arrowsOff = !arrowsOff;
      try {
        window.localStorage.setItem(ARROWS_KEY, arrowsOff ? "1" : "0");
      } catch (error) {
        // not kept: this page alone
      }
      setUpArrows(arrowsOff);
      return;
    }
    if (event.target.closest("#live button.autoplay")) {
      if (timer === null) {
        timer = setInterval(function () {
          if (!step("next")) {
            stop();
          }
        }, 1000);
        setUpAutoplay();
      } else {
        stop();
      }
      return;
    }
    var link = event.target.closest("#live a[href]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    var href = link.getAttribute("href");  // (an SVG link's href is no string)
    var target = showsBest(href) ? null : nodeOf(href);  // the best play: the server draws it
    if (target !== null) {
      event.preventDefault();
      stop();
      show(target);
    }
  });

  function typing(element) {
    if (!element || !element.closest) {
      return false;
    }
    if (element.isContentEditable || element.closest("textarea, select")) {
      return true;
    }
    var input = element.closest("input");
    return input !== null && !/^(button|submit|reset|checkbox|radio|range|color|file|image)$/.test(input.type);
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) {
      return;
    }
    if (event.key === "f" || event.key === "F") {
      event.preventDefault();
      window.location.assign($("a.flip").href);
      return;
    }
    var rel = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "up"}[event.key];
    if (rel) {
      event.preventDefault();
      stop();
      step(rel);
    }
  });

  if (current === null) {
    current = 0;
  }
  setUpAutoplay();
  var arrowsOff = arrowsHidden();
  setUpArrows(arrowsOff);
  var entry = document.querySelector('#live .movelist a[aria-current="true"]');
  if (entry) {
    keepInView($(".movelist"), entry);
  }
})();
