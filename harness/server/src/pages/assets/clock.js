"use strict";
// A play page's running clock counts down as the reader watches; at zero the page is asked
// for again, and the server (which keeps the time) says who lost on it. Without JavaScript
// the page shows the clocks as they were when it was made.
document.querySelectorAll(".clock[data-running]").forEach((el) => {
  const end = Date.now() + Number(el.dataset.ms);
  const shown = (ms) => {
    const s = Math.ceil(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };
  const tick = () => {
    const left = Math.max(0, end - Date.now());
    el.textContent = el.textContent.replace(/\d+:\d\d$/, shown(left));
    if (left > 0) {
      setTimeout(tick, Math.min(1000, left % 1000 || 1000));
    } else {
      location.reload();
    }
  };
  tick();
});
