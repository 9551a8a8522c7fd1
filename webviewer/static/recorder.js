// The scorer's board: click a man's point, then the point it goes to. Every legal next
// step is also a button under the board (the page works with the keyboard alone and
// without this script); clicking the board only presses those buttons, so nothing but a
// step the server offered can be sent. The board's shapes are named in White's numbering
// (data-point; the bar is "bar" and the trays "off"), whoever is on roll, as are the buttons'
// points (data-from-white, data-to-white); the numbers drawn and the buttons' words are the
// player on roll's. A man's point, then a point he reaches with more than one die, plays
// that route (the form .route-form, whose data-routes the server lists: the routes between
// two points, one per board they leave) when it is the only one, else says so.
(function () {
  "use strict";
  var figure = document.querySelector(".recorder figure.board");
  var buttons = Array.prototype.slice.call(document.querySelectorAll(".steps-offered button"));
  if (!figure || buttons.length === 0) {
    return;
  }
  var chosen = null;
  document.querySelectorAll(".entry-key").forEach(function (key) { key.hidden = false; });
  var routeForm = document.querySelector(".route-form");
  var routes = routeForm ? JSON.parse(routeForm.dataset.routes) : {};
  var routeNote = document.querySelector(".route-note");

  function routesTo(point) {  // the routes from the chosen man's point to ``point``
    return chosen === null ? [] : routes[chosen + ">" + point] || [];
  }

  function polygon(point) {  // the shape to mark: a point's triangle, the bar's or a tray's rectangle
    return figure.querySelector('polygon.point[data-point="' + point + '"], g[data-point="' + point + '"] > rect');
  }

  function mark() {
    figure.querySelectorAll(".source, .target, .chosen").forEach(function (p) {
      p.classList.remove("source", "target", "chosen");
    });
    buttons.forEach(function (button) {
      var from = polygon(button.dataset.fromWhite);
      var to = polygon(button.dataset.toWhite);
      if (chosen === null && from) {
        from.classList.add("source");
      }
      if (chosen !== null && button.dataset.fromWhite === chosen && to) {
        to.classList.add("target");
      }
    });
    if (chosen !== null && polygon(chosen)) {
      polygon(chosen).classList.add("chosen");
      Object.keys(routes).forEach(function (key) {
        var ends = key.split(">");
        if (ends[0] === chosen && polygon(ends[1])) {
          polygon(ends[1]).classList.add("target");
        }
      });
    }
  }

  figure.addEventListener("click", function (event) {
    var target = event.target.closest("[data-point]");
    if (!target) {
      return;
    }
    var point = target.dataset.point;
    var arriving = buttons.filter(function (b) {
      return b.dataset.toWhite === point && (chosen === null || b.dataset.fromWhite === chosen);
    });
    var leaving = buttons.filter(function (b) { return b.dataset.fromWhite === point; });
    var found = routesTo(point);
    if (routeNote) {
      routeNote.hidden = true;
    }
    if (chosen !== null && arriving.length) {
      arriving[0].click();
    } else if (found.length === 1) {
      routeForm.querySelector('input[name="route"]').value = found[0];
      routeForm.querySelector("button").click();
    } else if (found.length > 1 && routeNote) {
      routeNote.textContent = routeForm.dataset.ambiguous;
      routeNote.hidden = false;
      routeNote.scrollIntoView({block: "nearest"});  // under the board on a phone
    } else if (leaving.length) {
      chosen = chosen === point ? null : point;
      mark();
    } else if (chosen === null && arriving.length && arriving.every(function (b) { return b.dataset.fromWhite === "bar"; })) {
      arriving[0].click();  // a man on the bar must enter: the entry point alone says the step
    } else {
      chosen = null;
      mark();
    }
  });
  mark();
})();
