"use strict";
// Live pages: an element with data-live names an API call that waits for a change (a long
// poll); when the value at data-live-key differs from data-live-now, the page reloads, else
// it asks again. Without JavaScript the page is the same, only not live. Once the reader is
// leaving (a link, the address bar, a form), the page never reloads: a reload then would
// cancel the reader's navigation and leave them where they were.

// A navigation that never leaves (a download, a stopped load) makes the page live again.
let leaving = false;
addEventListener("beforeunload", () => {
  leaving = true;
  setTimeout(() => {
    leaving = false;
  }, 10000);
});
addEventListener("pagehide", () => {
  leaving = true;
});
addEventListener("pageshow", () => {
  leaving = false;
});

function liveValue(json, path) {
  return path.split(".").reduce((v, k) => (v == null ? v : v[k]), json);
}

async function liveLoop(el) {
  for (;;) {
    try {
      const answer = await fetch(el.dataset.live, { credentials: "same-origin" });
      if (answer.ok) {
        const value = liveValue(await answer.json(), el.dataset.liveKey);
        if (String(value) !== el.dataset.liveNow) {
          if (!leaving) location.reload();
          return;
        }
      } else {
        await new Promise((r) => setTimeout(r, 5000));
      }
    } catch (e) {
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
}

document.querySelectorAll("[data-live]").forEach(liveLoop);
