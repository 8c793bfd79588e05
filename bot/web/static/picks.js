// Building a move one pick at a time (render/hitmap.py says how each game's moves split).
// `legal` holds each legal move as its picks; `picks` the picks made so far.

const startsWith = (parts, picks) => picks.every((pick, i) => parts[i] === pick);

/** The legal moves that begin with the picks so far. */
export function candidates(legal, picks) {
  return legal.filter((parts) => parts.length >= picks.length && startsWith(parts, picks));
}

/** The parts that may come next, as a Set. */
export function nextParts(legal, picks) {
  const next = new Set();
  for (const parts of candidates(legal, picks)) {
    if (parts.length > picks.length) next.add(parts[picks.length]);
  }
  return next;
}

/** The picks so far when they make a whole legal move, else null. */
export function complete(legal, picks) {
  return candidates(legal, picks).some((parts) => parts.length === picks.length) ? picks : null;
}

/** A move's canonical text from its picks: a space between parts, none before "/1". */
export function joinMove(parts) {
  return parts.reduce((text, part) =>
    (!text || part.startsWith("/")) ? text + part : `${text} ${part}`, "");
}

/** The move naming every chosen toggle (`together`: the server's word and parts, in the order
 * the move names them; `chosen`: the parts toggled on), as picks; null when none is chosen. */
export function togetherMove(together, chosen) {
  if (!together || !chosen.length) return null;
  const named = together.parts.filter((part) => chosen.includes(part));
  return named.length ? [together.word, ...named.map((part) => part.slice(together.word.length + 1))] : null;
}
