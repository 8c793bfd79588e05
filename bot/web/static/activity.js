// The web board as a Discord Activity. Discord frames this page (through its proxy, which
// serves the URL mapping under /.proxy/ too); Discord's Embedded App SDK talks to the client:
// ready (the handshake), authorize (a code for scope identify), our POST /api/token (the code
// for a session token), authenticate (the client checks the token's user). Then the player's
// games, the game of the channel it was launched from open at once when there is one.
import { showGame } from "./game.js";

const main = document.getElementById("activity");
const words = JSON.parse(main.dataset.words);
const clientId = main.dataset.client;
// Requests of an Activity go through Discord's proxy: its prefix, for any URL mapping.
const root = "/.proxy";

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
const say = (text, role = "status") => main.replaceChildren(el("p", { role, textContent: text }));

async function signIn(DiscordSDK) {
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const answer = await fetch(`${root}/api/token`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }),
  });
  const session = await answer.json();
  if (!answer.ok) throw new Error(session.error);
  // Discord's client checks Discord's token; the board's own signs our requests.
  await sdk.commands.authenticate({ access_token: session.discord_access_token });
  return { sdk, token: session.access_token };
}

let stopGame = null;

async function listGames(token, channelId, openNow) {
  stopGame?.();
  stopGame = null;
  const query = channelId ? `?channel_id=${encodeURIComponent(channelId)}` : "";
  const answer = await fetch(`${root}/api/games${query}`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  const found = await answer.json();
  if (!answer.ok) return say(found.error, "alert");
  if (openNow && found.open) return openGame(token, channelId, found.open);
  const items = found.games.map((game) => el("li", {},
    el("button", { type: "button", className: "link", textContent: game.title,
                   onclick: () => openGame(token, channelId, game.id) }),
    game.your_turn ? ` — ${words.your_turn}` : ""));
  main.replaceChildren(el("h1", { textContent: words.your_games }),
    items.length ? el("ul", { className: "games" }, ...items) : el("p", { textContent: words.no_games }));
}

async function openGame(token, channelId, gameId) {
  stopGame?.();
  const back = el("button", { type: "button", className: "back", textContent: words.your_games,
                              onclick: () => listGames(token, channelId, false) });
  const board = el("section", { id: "game" });
  main.replaceChildren(el("nav", {}, back), board);
  stopGame = await showGame(board, gameId, { root, token, open: (id) => openGame(token, channelId, id) });
}

async function start() {
  let sdkModule;
  try {
    sdkModule = await import("/sdk/index.mjs");
  } catch {
    return say(words.activity_no_sdk, "alert");
  }
  try {
    const { sdk, token } = await signIn(sdkModule.DiscordSDK);
    await listGames(token, sdk.channelId, true);
  } catch (failure) {
    say(words.activity_failed.replace("{reason}", failure?.message ?? String(failure)), "alert");
  }
}

start();
