"""The emulated Discord client's page for an Activity: one HTML page and one ES module. The page
frames the Activity and carries its ``postMessage`` messages to the emulator and back; what
they mean is decided in Python (``activity_client``). Kept as text here so the installed
package carries them."""

from __future__ import annotations

import html
from string import Template

PAGE = Template("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Activity — the emulator's Discord</title>
<style>
  html, body { margin: 0; height: 100%; font: 14px sans-serif; background: #313338; }
  body { display: flex; flex-direction: column; }
  #bar { padding: 6px 10px; color: #dbdee1; background: #1e1f22; }
  #activity { flex: 1; border: 0; width: 100%; background: #fff; }
  #consent { position: fixed; inset: 0; display: flex; align-items: center;
             justify-content: center; background: rgb(0 0 0 / 60%); }
  #consent[hidden] { display: none; }
  #consent div { background: #fff; padding: 16px 20px; border-radius: 8px; max-width: 24em; }
</style>
</head>
<body data-session="$session" data-frame="$frame">
<div id="bar">$where — you are <b>$user</b></div>
<iframe id="activity" title="Activity"
        allow="autoplay; clipboard-write; fullscreen; encrypted-media"></iframe>
<div id="consent" hidden><div>
  <p id="consent-text"></p>
  <button id="authorize">Authorize</button> <button id="cancel">Cancel</button>
</div></div>
<script type="module" src="/.emulator/client.js"></script>
</body>
</html>
""")

#: The ES module: the Activity's frame is trusted by its window and its origin (the Activity is
#: served on this page's origin, through the URL-mapping proxy), as Discord's client trusts
#: only the iframe it made.
SCRIPT = """\
const session = document.body.dataset.session;
const frame = document.getElementById('activity');
const bar = document.getElementById('bar');
const consent = document.getElementById('consent');
const activityOrigin = new URL(document.body.dataset.frame).origin;

const toActivity = (message) => frame.contentWindow.postMessage(message, activityOrigin);
const call = (path, payload) => fetch(path, {
  method: 'POST',
  headers: {'Content-Type': 'application/json'},
  body: JSON.stringify(payload),
}).then((response) => response.json());

function carry(answer) {
  answer.send.forEach(toActivity);
  if (answer.ask) ask(answer.ask);
  if (answer.closed) close(answer.closed);
}

function ask({nonce, scopes, application, user}) {
  document.getElementById('consent-text').textContent =
    `${application} wants to access your account (${user}): ${scopes.join(', ')}`;
  consent.hidden = false;
  const decide = (granted) => () => {
    consent.hidden = true;
    call(`/.emulator/consent/${session}`, {nonce, granted}).then(carry);
  };
  document.getElementById('authorize').onclick = decide(true);
  document.getElementById('cancel').onclick = decide(false);
}

let events = null;

function close({code, message}) {
  frame.remove();
  if (events) events.close();
  bar.textContent = code === 1000 ? 'The Activity closed.'
    : `The Activity closed: ${message} (${code})`;
}

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== activityOrigin) return;
  call(`/.emulator/rpc/${session}`, {message: event.data}).then(carry);
});

events = new EventSource(`/.emulator/events/${session}`);
events.onmessage = (event) => toActivity(JSON.parse(event.data));
frame.src = document.body.dataset.frame;
"""


def page(session_id: str, frame_url: str, where: str, user: str) -> str:
    """The client page of one session."""
    return PAGE.substitute(session=html.escape(session_id), frame=html.escape(frame_url),
                           where=html.escape(where), user=html.escape(user))
