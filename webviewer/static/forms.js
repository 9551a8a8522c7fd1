/* A required field left empty: the message the browser shows is the page's, in the page's
   language, not the browser's own ("Please fill out this field." in the browser's
   language). The field's own words are its data-required; a field without them gets the
   page's (the body's data-required). The message is set when the browser finds the field
   empty, and cleared when the field changes or its form is sent again (a script that
   fills a field, as the dice picker does, fires no input event).
   It holds no words: every text it shows comes from the page. */
(function () {
  "use strict";

  function wordsFor(field) {
    return field.getAttribute("data-required") || document.body.getAttribute("data-required") || "";
  }

  function clear(field) {
    if (field.setCustomValidity) { field.setCustomValidity(""); }
  }

  document.addEventListener("invalid", function (event) {
    var field = event.target;
    if (!field.setCustomValidity) { return; }
    clear(field);
    if (field.validity.valueMissing && wordsFor(field)) {
      field.setCustomValidity(wordsFor(field));
    }
  }, true);
  ["input", "change"].forEach(function (kind) {
    document.addEventListener(kind, function (event) { clear(event.target); }, true);
  });
  /* a form sent again (a click on one of its buttons, or Enter, which clicks the first):
     its fields are checked afresh */
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button, input[type=submit]") : null;
    if (!button || !button.form || (button.type && button.type !== "submit")) { return; }
    Array.prototype.forEach.call(button.form.elements, clear);
  }, true);
}());
