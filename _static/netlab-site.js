/* netlab: the navigation buttons of the article header work at every width.

   sphinx-book-theme 1.3 shows its own menu and contents buttons in the article header, while
   pydata-sphinx-theme 0.17 opens the navigation drawers (its <dialog> elements) only from the
   first .primary-toggle / .secondary-toggle of the page: the duplicate buttons of its own header,
   which this book hides. Below 992 px nobody handles a tap on the visible buttons, so the menu
   could not be opened on a phone or tablet. Here a tap on a visible button is passed on to the
   theme's handler (which opens the drawer); on a wide screen the primary button keeps the book
   theme's behaviour (it hides or shows the sidebar). */
(function () {
  "use strict";
  function wire() {
    ["primary", "secondary"].forEach(function (kind) {
      var handled = document.querySelector("." + kind + "-toggle");   // the one the theme listens to
      document.querySelectorAll(".bd-header-article ." + kind + "-toggle").forEach(function (button) {
        if (!handled || button === handled) { return; }
        button.addEventListener("click", function (event) {
          if (kind === "primary" && window.matchMedia("(min-width: 992px)").matches) { return; }
          event.preventDefault();
          event.stopImmediatePropagation();
          handled.click();
        }, true);
      });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", wire); } else { wire(); }
})();
