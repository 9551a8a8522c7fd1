// Keyboard stepping on a game page: Left/Right step back and forward, Home/End jump to
// the start and the end. The keys follow the page's own links (rel=prev/next/first/last),
// so without this script every ply is still a link.
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) {
    return;
  }
  var rel = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[event.key];
  var link = rel && document.querySelector('.steps a[rel="' + rel + '"]');
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
