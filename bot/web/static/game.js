// A game's page: the bot's own board image with its clickable regions laid over it (an SVG
// of the hit map's polygons), the picks that build a move, Play, the move list, Resign, and a
// live socket that says when to look again. Drawn from GET /api/games/<id>: by the web
// board's game page (signed in by cookie), or by the Activity (``activity.js``: its API is
// under Discord's /.proxy/ prefix and it signs in with a bearer token).
import { candidates, complete, joinMove, nextParts, togetherMove } from "./picks.js";

const SVG = "http://www.w3.org/2000/svg";
const light = window.matchMedia("(prefers-color-scheme: light)");

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

/**
 * Show game `gameId` in `main`, and keep it up to date. `root` prefixes the API's paths;
 * `token`, when given, is sent as the bearer session (header, and query of the live socket,
 * which takes no headers); `open(id)`, when given, shows another game in its place (the
 * Activity's), else that game's page is linked. Returns a function that stops following the game.
 */
export async function showGame(main, gameId, { root = "", token = null, open = null } = {}) {
  const api = `${root}/api/games/${gameId}`;
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  let state = null;
  let picks = [];
  // Regions toggled on, sent together as one move (Polygo's groups marked dead: `together`).
  let chosen = [];
  let notice = "";
  let asked = 0; // the newest state asked for: an older answer arriving late is dropped
  let stopped = false;
  let socket = null;
  // Looking back: the ply shown (null: the current position) and its pictures once loaded.
  let looking = null;
  let past = null;
  // The countdown: the server's clock minus this one's (ms), and the timer that ticks it.
  let skew = 0;
  let ticker = null;

  async function load() {
    const theme = light.matches ? "light" : "dark";
    const ask = ++asked;
    const answer = await fetch(`${api}?theme=${theme}`, { headers: { Accept: "application/json", ...auth } });
    const body = await answer.json();
    if (ask !== asked || stopped) return;
    if (answer.status === 429 && state) {
      // Too many at once: keep the board shown and look again when the server says.
      const wait = Number(answer.headers.get("Retry-After")) || 1;
      setTimeout(() => { if (!stopped) load(); }, wait * 1000);
      return;
    }
    if (!answer.ok) {
      state = null;
      main.replaceChildren(el("p", { role: "alert", textContent: body.error }));
      return;
    }
    if (state && state.version !== body.version) picks = chosen = [];
    state = body;
    chosen = chosen.filter((part) => state.together?.parts.includes(part));
    if (state.clock) skew = Date.parse(state.clock.now) - Date.now();
    // A take-back may remove the move looked at: then the present is shown.
    if (looking !== null && looking >= state.moves.length) looking = past = null;
    if (!candidates(state.legal, picks).length) picks = [];
    draw();
  }

  /** Show the board after move `ply` (the bot draws it for this viewer), or the present. */
  async function lookAt(ply) {
    if (ply === null || ply >= state.moves.length) {
      looking = past = null;
      draw();
      return;
    }
    looking = ply;
    const theme = light.matches ? "light" : "dark";
    const answer = await fetch(`${api}/past/${ply}?theme=${theme}`, { headers: { Accept: "application/json", ...auth } });
    const body = await answer.json();
    if (stopped || looking !== ply) return;
    if (answer.ok) past = body;
    else notice = body.error;
    if (!answer.ok && !past) looking = null;
    draw();
  }

  const fill = (text, ply) => text.replace("{n}", ply).replace("{move}", state.moves[ply - 1]);

  function pick(part) {
    picks = [...picks, part];
    notice = "";
    draw();
  }

  /** A polygon of the hit map; with `activate`, a focusable button named by its notation
   * part that runs `activate(part)` on a click, Enter or Space. */
  function polygon(part, points, className, activate) {
    const shape = document.createElementNS(SVG, "polygon");
    shape.setAttribute("points", points.map(([x, y]) => `${x},${y}`).join(" "));
    shape.setAttribute("class", className);
    if (!activate) return shape;
    shape.setAttribute("role", "button");
    shape.setAttribute("tabindex", "0");
    shape.setAttribute("aria-label", part);
    const title = document.createElementNS(SVG, "title");
    title.textContent = part;
    shape.append(title);
    shape.addEventListener("click", () => activate(part));
    shape.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate(part);
      }
    });
    return shape;
  }

  /** One clickable region: the notation part it adds (a picked one is drawn, not offered). */
  function region(part, points, picked) {
    return picked ? polygon(part, points, "region picked")
      : polygon(part, points, "region", pick);
  }

  function flip(part) {
    chosen = chosen.includes(part) ? chosen.filter((p) => p !== part) : [...chosen, part];
    notice = "";
    draw();
  }

  /** A region toggled on or off (aria-pressed) by a click: part of one move with the others on. */
  function toggle(part, points) {
    const on = chosen.includes(part);
    const shape = polygon(part, points, on ? "region picked" : "region", flip);
    shape.setAttribute("aria-pressed", String(on));
    return shape;
  }

  /** An image with the regions of its hit map that may come next (and the ones picked). */
  function picture(drawn, label, next) {
    const { width, height, fields, regions } = drawn.hits;
    const at = Object.fromEntries(fields.map((name, i) => [name, i]));
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("preserveAspectRatio", "none");
    const toggles = !picks.length && state.your_turn ? (state.together?.parts ?? []) : [];
    for (const values of regions) {
      const part = values[at.part];
      if (toggles.includes(part)) {
        svg.append(toggle(part, values[at.polygon]));
        continue;
      }
      const after = values[at.after];
      if (after && !picks.includes(after)) continue;
      const picked = picks.includes(part) && !next.has(part);
      if (next.has(part) || picked) svg.append(region(part, values[at.polygon], picked));
    }
    const image = el("img", { src: drawn.image, alt: label, width, height });
    return el("div", { className: "picture" }, image, svg);
  }

  function draw() {
    const s = state;
    const w = s.words;
    const next = nextParts(s.legal, picks);
    const joined = togetherMove(s.together, chosen);
    const done = joined ?? complete(s.legal, picks);
    document.title = s.title;
    const parts = [el("h1", { textContent: s.title }),
                   el("p", { className: "turn", textContent: s.turn_text })];
    if (s.clock) {
      const when = new Date(s.clock.deadline).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
      const text = s.clock.paused ? w.paused : w.due.replace("{when}", when).replace("{control}", s.clock.control);
      parts.push(el("p", { className: "clock", textContent: text }));
      if (!s.clock.paused) parts.push(el("p", { className: "countdown", role: "timer" }));
    }
    if (notice) parts.push(el("p", { role: "alert", className: "notice", textContent: notice }));
    if (looking !== null && past) {
      // The past is looked at, not played: its pictures alone, without regions or Play.
      const caption = fill(w.past_board, past.ply);
      parts.push(el("p", { className: "past" }, caption, " ",
        el("button", { type: "button", className: "present", textContent: w.to_current, ariaLabel: w.to_current, onclick: () => lookAt(null) })));
      const shown = (drawn, label) => el("div", { className: "picture" }, el("img", { src: drawn.image, alt: label }));
      parts.push(shown(past.board, caption));
      if (past.hand) parts.push(el("h2", { textContent: w.your_cards }), shown(past.hand, w.your_cards));
    } else {
      parts.push(picture(s.board, s.title, next));
      if (s.hand) parts.push(el("h2", { textContent: w.your_cards }), picture(s.hand, w.your_cards, next));
      if (s.choices) parts.push(el("h2", { textContent: w.choices }), picture(s.choices, w.choices, next));
    }
    if (s.your_turn && looking === null) {
      const bar = el("div", { className: "picks" });
      const shown = joined ?? picks;
      bar.append(el("output", { textContent: shown.length ? joinMove(shown) : w.pick_hint }));
      for (const word of s.buttons) {
        if (next.has(word) && !joined) bar.append(el("button", { type: "button", textContent: word, onclick: () => pick(word) }));
      }
      const play = el("button", { type: "button", className: "play", textContent: w.play, disabled: !done, onclick: () => send(done) });
      const back = el("button", { type: "button", textContent: w.back, disabled: !picks.length && !chosen.length,
                                  onclick: () => { if (joined) chosen = chosen.slice(0, -1); else picks = picks.slice(0, -1); draw(); } });
      bar.append(play, back);
      parts.push(bar);
    }
    const list = el("ol", { className: "moves" });
    // Each move a button showing the board after it (the last one: the present).
    s.moves.forEach((move, i) => {
      const ply = i + 1;
      const shown = looking === null ? ply === s.moves.length : ply === looking;
      list.append(el("li", {}, el("button", { type: "button", className: "step", textContent: move,
        ariaLabel: fill(w.show_move, ply), ariaCurrent: shown ? "step" : null, onclick: () => lookAt(ply) })));
    });
    parts.push(el("h2", { textContent: w.moves }), s.moves.length ? list : el("p", { textContent: w.no_moves_yet }));
    // The rules /rules gives, as a page in the viewer's language (a new tab: the board stays).
    parts.push(el("p", {}, el("a", { href: `${root}/rules/${s.game}`, target: "_blank", rel: "noopener", textContent: w.rules })));
    if (s.offers.text) parts.push(el("p", { className: "offers", textContent: s.offers.text }));
    // A spectator's page changes nothing: no resigning, offers or hint (the server refuses them).
    if (s.watching) parts.push(el("p", { className: "watching", textContent: w.watching }));
    else if (s.status === "active") parts.push(resignControls(w, s.offers.actions, s.hint));
    if (s.rematch) parts.push(rematchControls(w, s.rematch));
    const focused = document.activeElement?.getAttribute?.("aria-label");
    main.replaceChildren(...parts);
    if (focused) main.querySelector(`[aria-label="${CSS.escape(focused)}"]`)?.focus();
    tick();
  }

  /** The time left for the move, counted down here from the server's deadline and clock:
   * nothing is asked of the server until the time is up (then once, for what that allows). */
  function tick() {
    const shown = main.querySelector(".countdown");
    clearTimeout(ticker);
    if (!shown || stopped) return;
    const w = state.words;
    const left = Date.parse(state.clock.deadline) - (Date.now() + skew);
    if (left <= 0) {
      const over = shown.textContent === w.time_up;
      shown.textContent = w.time_up;
      if (!over && shown.dataset.seen) load();
      return;
    }
    shown.dataset.seen = "1";
    const total = Math.floor(left / 1000);
    const days = Math.floor(total / 86400);
    const hms = [Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60]
      .map((n) => String(n).padStart(2, "0")).join(":");
    shown.textContent = w.time_left.replace("{left}", days ? `${days} ${w.days} ${hms}` : hms);
    ticker = setTimeout(tick, (left % 1000) || 1000);
  }

  function resignControls(w, actions, hint) {
    const dialog = el("dialog", {},
      el("p", { textContent: w.resign_question }),
      el("button", { type: "button", textContent: w.resign_confirm, onclick: () => { dialog.close(); resign(); } }),
      el("button", { type: "button", textContent: w.cancel, onclick: () => dialog.close() }));
    const open = el("button", { type: "button", className: "resign", textContent: w.resign, onclick: () => dialog.showModal() });
    // Draw offers and take-backs: each a button named by what it does.
    const offers = actions.map((action) => el("button", { type: "button", textContent: w[action],
      onclick: () => post(`${api}/offers`, { action, ply: state.ply }) }));
    // Against the AI, where /hint would answer: the AI's move, said to this player alone.
    if (hint) offers.unshift(el("button", { type: "button", textContent: w.hint, onclick: askHint }));
    return el("div", { className: "actions" }, ...offers, open, dialog);
  }

  /** After the game: Rematch (as Discord's button), then the new game once it has started. */
  function rematchControls(w, rematch) {
    const id = rematch.new_game;
    if (id) {
      const text = w.rematch_open.replace("{n}", id);
      return el("p", { className: "rematch" }, open
        ? el("button", { type: "button", className: "play", textContent: text, onclick: () => open(id) })
        : el("a", { href: `/games/${id}`, textContent: text }));
    }
    if (rematch.asked) return el("p", { className: "rematch", textContent: w.rematch_asked });
    return el("div", { className: "actions" }, el("button", { type: "button", className: "play",
      textContent: w.rematch, onclick: () => post(`${api}/rematch`, {}) }));
  }

  async function askHint() {
    const answer = await fetch(`${api}/hint`, { method: "POST", headers: { "Content-Type": "application/json", ...auth }, body: "{}" });
    const result = await answer.json();
    notice = answer.ok ? result.text : result.error;
    draw();
  }

  async function post(path, body) {
    const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", ...auth }, body: JSON.stringify(body) });
    const result = await answer.json();
    notice = answer.ok ? "" : result.error;
    picks = chosen = [];
    await load();
  }

  const send = (parts) => post(`${api}/move`, { move: joinMove(parts), ply: state.ply });
  const resign = () => post(`${api}/resign`, { ply: state.ply });

  function listen() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}${api}/live${query}`);
    socket.addEventListener("message", () => load());
    socket.addEventListener("close", () => {
      if (state && !stopped) {
        notice = state.words.live_lost;
        draw();
      }
    });
  }

  const reload = () => load();
  light.addEventListener("change", reload);
  await load();
  listen();
  return () => {
    stopped = true;
    clearTimeout(ticker);
    light.removeEventListener("change", reload);
    socket?.close();
  };
}

// The web board's game page names its game; the Activity's page calls showGame itself.
const page = document.getElementById("game");
if (page?.dataset.game) showGame(page, page.dataset.game);
