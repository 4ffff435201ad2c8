// cardforge preview: filtering the gallery and following the server's rebuilds (server-sent events).
"use strict";
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const filter = { text: "", type: "", provisional: false, problems: false };

  function terms(query) {
    // "cost:3 fire" -> [{field: "cost", value: "3"}, {field: null, value: "fire"}]
    return query.toLowerCase().split(/\s+/).filter(Boolean).map(t => {
      const i = t.indexOf(":");
      return i > 0 ? { field: t.slice(0, i), value: t.slice(i + 1) } : { field: null, value: t };
    });
  }

  function matches(card, wanted) {
    if (filter.type && card.dataset.type !== filter.type) return false;
    if (filter.provisional && card.dataset.provisional !== "1") return false;
    if (filter.problems && card.dataset.problems === "0") return false;
    if (!wanted.length) return true;
    const fields = JSON.parse(card.dataset.fields || "[]").map(([k, v]) => [k.toLowerCase(), String(v).toLowerCase()]);
    const everything = [card.dataset.name, card.dataset.type, ...fields.map(f => f[1])].join("\n");
    return wanted.every(t => t.field === null ? everything.includes(t.value)
      : fields.some(([k, v]) => k === t.field && (t.value === "" || v.includes(t.value))) || (t.field === "type" && card.dataset.type.includes(t.value)));
  }

  function applyFilter() {
    const wanted = terms(filter.text);
    let shown = 0, all = 0;
    for (const group of $$(".type-group")) {
      let inGroup = 0;
      for (const card of $$(".card", group)) {
        const ok = matches(card, wanted);
        card.hidden = !ok;
        all += 1; if (ok) { shown += 1; inGroup += 1; }
      }
      group.hidden = inGroup === 0;
    }
    const out = $("#shown");
    if (out) out.textContent = shown === all ? `${all} cards` : `${shown} of ${all} cards shown`;
    for (const chip of $$(".chip")) chip.setAttribute("aria-pressed", String(chip.dataset.type === filter.type));
  }

  function setFaces(mode) {
    document.body.classList.remove("faces-front", "faces-both", "faces-back");
    document.body.classList.add(`faces-${mode}`);
    for (const b of $$("[data-faces]")) b.setAttribute("aria-pressed", String(b.dataset.faces === mode));
    try { localStorage.setItem("cardforge-faces", mode); } catch (e) { /* private mode */ }
  }

  function measureHeader() {
    const top = $(".top");
    if (top) document.documentElement.style.setProperty("--head", `${top.offsetHeight}px`);
  }

  function wire() {
    measureHeader();
    window.addEventListener("resize", measureHeader);
    const q = $("#q");
    const form = $("form.filters");
    if (form) form.addEventListener("submit", e => e.preventDefault());
    if (q) q.addEventListener("input", () => { filter.text = q.value; applyFilter(); });
    document.addEventListener("click", e => {
      const chip = e.target.closest(".chip");
      if (chip) { filter.type = chip.dataset.type; applyFilter(); }
      const faces = e.target.closest("[data-faces]");
      if (faces) setFaces(faces.dataset.faces);
    });
    for (const [id, key] of [["only-provisional", "provisional"], ["only-problems", "problems"]]) {
      const box = $("#" + id);
      if (box) box.addEventListener("change", () => { filter[key] = box.checked; applyFilter(); });
    }
    let mode = "front";
    try { mode = localStorage.getItem("cardforge-faces") || "front"; } catch (e) { /* private mode */ }
    setFaces(mode);
    applyFilter();
  }

  // A region's new content: the cards that changed, one by one, when the region holds the same
  // cards in the same groups (an edit to a card redraws one card, not a gallery of hundreds);
  // otherwise the whole region.
  function patch(region, next) {
    const mine = $$("article.card[data-id]", region), theirs = $$("article.card[data-id]", next);
    const heads = root => $$("h2", root).map(h => h.textContent).join("\n");
    const same = mine.length > 0 && mine.length === theirs.length && heads(region) === heads(next)
      && mine.every((card, i) => card.dataset.id === theirs[i].dataset.id);
    if (!same) { region.innerHTML = next.innerHTML; return; }
    const shown = card => card.outerHTML.replace(/ hidden=""/, "");
    mine.forEach((card, i) => { if (shown(card) !== theirs[i].outerHTML) card.replaceWith(document.importNode(theirs[i], true)); });
  }

  // A step that changes nothing but the status (checking, drawing): the badge, without re-reading the page.
  const STEPS = { checking: "checking…", drawing: "drawing cards…" };
  function stepOnly(message) {
    const badge = $("#status");
    if (!badge || !(message.status in STEPS)) return false;
    badge.className = `status status-${message.status}`;
    badge.dataset.status = message.status;
    badge.dataset.version = String(message.version);
    badge.textContent = STEPS[message.status];
    return true;
  }

  // Live update: re-read this page and swap the regions marked data-live, keeping the scroll position.
  let busy = false, again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(location.href, { cache: "no-store" });
      const html = await response.text();
      const fresh = new DOMParser().parseFromString(html, "text/html");
      const x = window.scrollX, y = window.scrollY;
      for (const region of $$("[data-live]")) {
        const next = fresh.getElementById(region.id);
        if (!next) continue;
        if (region.innerHTML !== next.innerHTML) patch(region, next);
        for (const attr of ["class", "data-status", "data-version"]) {
          if (next.hasAttribute(attr)) region.setAttribute(attr, next.getAttribute(attr));
        }
      }
      document.title = fresh.title;
      document.body.dataset.version = fresh.body.dataset.version;
      applyFilter();
      window.scrollTo(x, y);
      document.dispatchEvent(new CustomEvent("cardforge:updated"));
    } catch (e) {
      console.warn("cardforge: could not refresh", e);
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  function listen() {
    const slug = document.body.dataset.slug;
    const state = $("#live-state");
    const events = new EventSource("/events");
    events.onopen = () => { if (state) { state.textContent = "live"; state.classList.remove("offline"); } };
    events.onerror = () => { if (state) { state.textContent = "server not reachable: retrying"; state.classList.add("offline"); } };
    events.onmessage = e => {
      const message = JSON.parse(e.data);
      if (message.hello) {  // (re)connected: catch up with anything published since this page was made
        if (String(message.version) !== document.body.dataset.version) refresh();
        return;
      }
      // a step that also changed what the page shows (the first cards drawn) is re-read
      const shownNew = message.shown > Number(document.body.dataset.version || 0);
      if (slug && message.slug === slug && !shownNew && stepOnly(message)) return;
      if (!slug || message.slug === slug) refresh();
    };
  }

  document.addEventListener("DOMContentLoaded", () => { wire(); listen(); });
})();
