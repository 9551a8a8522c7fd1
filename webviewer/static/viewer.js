// The game page without reloads. Every ply is a server-rendered link, so the page works
// without this script; with it, following a link of the game (the steps, the move list,
// the pip chart) fetches that page and swaps in its live part, and the address changes
// as if the link had been followed. Keys: Left/Right step, Home/End jump, Up leaves a
// variation. The Autoplay button steps forward once a second until the end.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) {
    return;
  }
  var pages = new Map();
  var timer = null;

  function sameGame(url) {
    return url.origin === window.location.origin && url.pathname === window.location.pathname;
  }

  function fetchPage(href) {
    if (!pages.has(href)) {
      pages.set(href, fetch(href, {credentials: "same-origin"}).then(function (response) {
        if (!response.ok) {
          throw new Error(response.status);
        }
        return response.text();
      }));
    }
    return pages.get(href);
  }

  // Where the focus was, to put it back on the same control of the new content.
  function focusKey() {
    var active = document.activeElement;
    if (!active || !active.closest("#live")) {
      return null;
    }
    if (active.getAttribute("rel")) {
      return '#live .steps a[rel="' + active.getAttribute("rel") + '"]';
    }
    if (active.classList.contains("autoplay")) {
      return "#live button.autoplay";
    }
    return '#live .moves a[aria-current="step"]';
  }

  function show(href, push) {
    return fetchPage(href).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
      if (!fresh) {
        throw new Error("no live part");
      }
      var focus = focusKey();
      document.getElementById("live").replaceWith(document.adoptNode(fresh));
      var control = focus && (document.querySelector(focus) || document.querySelector("#live .steps a"));
      if (control) {
        control.focus();
      }
      var caption = fresh.querySelector("figure.board figcaption");
      var announce = document.getElementById("announce");
      if (caption && announce) {
        announce.textContent = caption.textContent.replace(/\s+/g, " ").trim();
      }
      if (push) {
        history.pushState({href: href}, "", href);
      }
      setUpAutoplay();
    }).catch(function () {
      pages.delete(href);
      stop();
      window.location.assign(href);
    });
  }

  function follow(rel) {
    var link = document.querySelector('#live .steps a[rel="' + rel + '"]');
    return link ? show(link.href, true) : null;
  }

  // Autoplay: one step, then the next a second after it is shown, until the end.
  function tick() {
    var shown = follow("next");
    if (!shown) {
      stop();
      return;
    }
    shown.then(function () {
      if (timer !== null) {
        timer = setTimeout(tick, 1000);
      }
    });
  }

  function stop() {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    setUpAutoplay();
  }

  function setUpAutoplay() {
    var button = document.querySelector("#live button.autoplay");
    if (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", timer === null ? "false" : "true");
      button.textContent = timer === null ? "Autoplay" : "Stop";
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#live button.autoplay");
    if (button) {
      if (timer === null) {
        timer = setTimeout(tick, 1000);
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
    var url = new URL(link.href, window.location.href);
    if (sameGame(url)) {
      event.preventDefault();
      stop();
      show(url.href, true);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea, button")) {
      return;
    }
    var rel = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "up"}[event.key];
    if (rel) {
      stop();
      if (follow(rel)) {
        event.preventDefault();
      }
    }
  });

  window.addEventListener("popstate", function () {
    stop();
    show(window.location.href, false);
  });

  setUpAutoplay();
})();
