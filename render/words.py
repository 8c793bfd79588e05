"""Every word render writes on an image, in English and French.

Render may not import the bot's translations (it imports engines only), so the few words of the
images live here: headers, seat names, legends, pile labels, the hand image, bracket columns.
Sentences the caller already translated (an outcome's reason, a clock) are passed in as text.

French follows French typography: a no-break space before ``:`` and ``;`` (so a line never
starts with one). Counted words have a ``.one`` and an ``.other`` form, chosen by the
language's plural rule (French says "1 carte" and "0 carte").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from babel import Locale

from engines.spelling import fill

NBSP = "\u00a0"

EN: dict[str, str] = {
    # The header.
    "header.to_play": "{name} to play",
    "header.to_play_doing": "{name} to play: {doing}",
    "header.draw": "Game over: draw",
    "header.won.one": "Game over: {names} wins",
    "header.won.other": "Game over: {names} win",
    "header.move": "move {n}",
    "header.moves.one": "{n} move",
    "header.moves.other": "{n} moves",
    # Seat names the engines give in English, by key ("seat." + the name in snake case).
    "seat.black": "Black",
    "seat.white": "White",
    "seat.blue": "Blue",
    "seat.red": "Red",
    "seat.green": "Green",
    "seat.yellow": "Yellow",
    "seat.orange": "Orange",
    "seat.north": "North",
    "seat.east": "East",
    "seat.south": "South",
    "seat.west": "West",
    "seat.isis": "Isis",
    "seat.anubis": "Anubis",
    "seat.player_1": "Player 1",
    "seat.player_2": "Player 2",
    # Alak.
    "alak.stats": "{line} on the line · {captured} captured",
    "alak.legend": "Type a letter to play.",
    "alak.banned": "× = just captured: not playable this turn.",
    "alak.banned_end": "× = just captured: no point was left to play, so the game ended.",
    # Polygo.
    "polygo.points": "{points} points: {territory} territory − {prisoners} prisoners",
    "polygo.captured": "{n} captured",
    "polygo.doing.scoring": "accept, dead/alive, or resume",
    "polygo.passed": "the opponent passed",
    "polygo.scoring": "scoring",
    "polygo.last": "Last move: {move}.",
    "polygo.legend.over": "Score: territory minus prisoners. Red cells are walls.",
    "polygo.legend.scoring": "Type accept, dead i9 …, alive i9 … or resume. × = marked dead.",
    "polygo.legend.play": "Type a cell (i9), then walls next to it if you like (i9 h9), or pass.",
    # Palago.
    "palago.goal.0": "wins with a white creature",
    "palago.goal.1": "wins with a blue creature",
    "palago.doing.opening": "opening pair at 0,0 and a neighbour",
    "palago.doing.play": "two touching tiles",
    "palago.laid": "{laid}/{total} tiles laid",
    "palago.legend.play": "Type q,r/o q,r/o: two touching empty cells, one next to a tile. "
                          "Close a creature of your colour.",
    "palago.legend.over": "A creature: a closed shape of one colour holding at least one arch.",
    # Palam.
    "palam.stats": "{points} points · {taken} taken",
    "palam.duel": "duel {n}/{total}",
    "palam.duels": "{total} duels",
    "palam.duels_fought": "duels: {n}/{total}",
    "palam.doing.camp": "choose a camp",
    "palam.doing.draft": "pick a piece and a cell",
    "palam.doing.answer": "answer {piece}",
    "palam.doing.attack": "attack or swap",
    "palam.doing.attack_only": "attack (no swap after a swap)",
    "palam.even": "even",
    "palam.odd": "odd",
    "palam.duel_row": "duel row",
    "palam.even_wins": "even: west wins",
    "palam.odd_wins": "odd: east wins",
    "palam.takes_both": "{role} takes both",
    "palam.to_pick": "Pieces to pick:",
    "palam.to_pick_more": "Pieces to pick ({n} more stay face down until these are placed):",
    "palam.took": "{name} took {n}:",
    "palam.legend.camp": "Take a camp with its pieces as dealt: camp isis or camp anubis. "
                         "The other starts.",
    "palam.legend.over": "Light pieces are worth 11 points, the others 1; the last duel adds 11.",
    "palam.legend.draft": "Type a piece and one of your cells: A5 b2.",
    "palam.legend.answer": "Answer with a column letter: same symbol or same count, "
                           "else your leftmost.",
    "palam.legend.attack": "Attack: a column letter (c). Swap: two of your cells (b1 e2). "
                           "Light pieces = 11 pts.",
    # LPPG.
    "lppg.doing.play": "place a card (or pass)",
    "lppg.doing.keep": "choose the marker to keep",
    "lppg.doing.mark": "mark a largest closed region",
    "lppg.doing.draw": "draw two cards",
    "lppg.doing.draw_one": "draw a card",
    "lppg.team.ns": "team N+S",
    "lppg.team.ew": "team E+W",
    "lppg.markers": "markers left: ● {o}  ◆ {p}",
    "lppg.last_move": "last move: {move}",
    "lppg.final_turns.one": "last round: {n} turn left",
    "lppg.final_turns.other": "last round: {n} turns left",
    "lppg.legend.play": "Number on a marker = territory size; ◆ permanent, ● ordinary; "
                        "outlined squares = closed region to mark.",
    "lppg.legend.over": "Number on a marker = territory size; × = cancelled (another has "
                        "its size).",
    "lppg.pile": "Pile {name}",
    "lppg.cards.one": "{n} card",
    "lppg.cards.other": "{n} cards",
    "lppg.discard": "Discard",
    "lppg.face_down.one": "{n} face down",
    "lppg.face_down.other": "{n} face down",
    "lppg.no_cards": "no cards",
    "lppg.hand.title": "Your hand, {name}",
    "lppg.hand.private": "{role} · private: only you see this",
    "lppg.hand.your_turn": "your turn: place a card",
    "lppg.hand.empty": "No cards in hand.",
    "lppg.hand.slot": "Slot {n}",
    "lppg.hand.hidden": "hidden",
    "lppg.hand.legend": "x,y = the top-left square of the card's box; rotations turn clockwise.",
    "colour.white": "white",
    "colour.red": "red",
    "colour.blue": "blue",
    "colour.green": "green",
    "colour.yellow": "yellow",
    # Kolory.
    "kolory.group": "largest group {group}",
    "kolory.group_left": "group {group} · {left} left",
    "kolory.group_cards_left": "largest group {group} · {left} cards left",
    "kolory.round": "round {n}/{total}",
    "kolory.placed": "{n} cards placed",
    "kolory.order": "Round {n}:",
    "kolory.legend.play": "Type x,y: the top-left square of your card. {n} cards each.",
    "kolory.legend.over": "Score: each colour's largest connected group of squares.",
    # The elimination bracket.
    "bracket.final": "Final",
    "bracket.semi": "Semi-finals",
    "bracket.quarter": "Quarter-finals",
    "bracket.round": "Round {n}",
}

FR: dict[str, str] = {
    "header.to_play": "À {name} de jouer",
    "header.to_play_doing": "À {name} de jouer : {doing}",
    "header.draw": "Partie terminée : nulle",
    "header.won.one": "Partie terminée : {names} gagne",
    "header.won.other": "Partie terminée : {names} gagnent",
    "header.move": "coup {n}",
    "header.moves.one": "{n} coup",
    "header.moves.other": "{n} coups",
    "seat.black": "Noir",
    "seat.white": "Blanc",
    "seat.blue": "Bleu",
    "seat.red": "Rouge",
    "seat.green": "Vert",
    "seat.yellow": "Jaune",
    "seat.orange": "Orange",
    "seat.north": "Nord",
    "seat.east": "Est",
    "seat.south": "Sud",
    "seat.west": "Ouest",
    "seat.isis": "Isis",
    "seat.anubis": "Anubis",
    "seat.player_1": "Joueur 1",
    "seat.player_2": "Joueur 2",
    "alak.stats": "{line} sur la ligne · {captured} prises",
    "alak.legend": "Tapez une lettre pour jouer.",
    "alak.banned": "× = vient d'être prise : injouable ce tour-ci.",
    "alak.banned_end": "× = vient d'être prise : plus aucun point à jouer, la partie est finie.",
    "polygo.points": "{points} points : {territory} de territoire − {prisoners} prisonniers",
    "polygo.captured": "{n} prises",
    "polygo.doing.scoring": "accept, dead/alive ou resume",
    "polygo.passed": "l'adversaire a passé",
    "polygo.scoring": "décompte",
    "polygo.last": "Dernier coup : {move}.",
    "polygo.legend.over": "Score : territoire moins prisonniers. Les cases rouges sont des murs.",
    "polygo.legend.scoring": "Tapez accept, dead i9 …, alive i9 … ou resume. × = pierre morte.",
    "polygo.legend.play": "Tapez une case (i9), si vous voulez des murs voisins (i9 h9), "
                          "ou pass.",
    "palago.goal.0": "gagne avec une créature blanche",
    "palago.goal.1": "gagne avec une créature bleue",
    "palago.doing.opening": "première paire en 0,0 et une voisine",
    "palago.doing.play": "deux tuiles qui se touchent",
    "palago.laid": "{laid}/{total} tuiles posées",
    "palago.legend.play": "Tapez q,r/o q,r/o : deux cases vides voisines, dont une touche une "
                          "tuile. Fermez une créature de votre couleur.",
    "palago.legend.over": "Une créature : une forme fermée d'une seule couleur qui contient au "
                          "moins une arche.",
    "palam.stats": "{points} points · {taken} prises",
    "palam.duel": "duel {n}/{total}",
    "palam.duels": "{total} duels",
    "palam.duels_fought": "duels : {n}/{total}",
    "palam.doing.camp": "choisir un camp",
    "palam.doing.draft": "choisir une pièce et une case",
    "palam.doing.answer": "répondre à {piece}",
    "palam.doing.attack": "attaquer ou échanger",
    "palam.doing.attack_only": "attaquer (pas d'échange après un échange)",
    "palam.even": "pair",
    "palam.odd": "impair",
    "palam.duel_row": "rangée des duels",
    "palam.even_wins": "pair : l'ouest gagne",
    "palam.odd_wins": "impair : l'est gagne",
    "palam.takes_both": "{role} prend les deux",
    "palam.to_pick": "Pièces à choisir :",
    "palam.to_pick_more": "Pièces à choisir ({n} autres restent cachées jusqu'à leur tour) :",
    "palam.took": "{name} a pris {n} :",
    "palam.legend.camp": "Prenez un camp avec ses pièces telles que distribuées : camp isis ou "
                         "camp anubis. L'autre commence.",
    "palam.legend.over": "Les pièces claires valent 11 points, les autres 1 ; le dernier duel "
                         "rapporte 11.",
    "palam.legend.draft": "Tapez une pièce et une de vos cases : A5 b2.",
    "palam.legend.answer": "Répondez par une lettre de colonne : même symbole ou même nombre, "
                           "sinon la plus à gauche.",
    "palam.legend.attack": "Attaque : une lettre de colonne (c). Échange : deux de vos cases "
                           "(b1 e2). Pièces claires = 11 pts.",
    "lppg.doing.play": "poser une carte (ou passer)",
    "lppg.doing.keep": "choisir le marqueur à garder",
    "lppg.doing.mark": "marquer une plus grande région fermée",
    "lppg.doing.draw": "piocher deux cartes",
    "lppg.doing.draw_one": "piocher une carte",
    "lppg.team.ns": "équipe N+S",
    "lppg.team.ew": "équipe E+O",
    "lppg.markers": "à poser : ● {o}  ◆ {p}",
    "lppg.last_move": "dernier coup : {move}",
    "lppg.final_turns.one": "dernier tour : encore {n} coup",
    "lppg.final_turns.other": "dernier tour : encore {n} coups",
    "lppg.legend.play": "Nombre sur un marqueur = taille du territoire ; ◆ permanent, "
                        "● ordinaire ; cases encadrées = région fermée à marquer.",
    "lppg.legend.over": "Nombre sur un marqueur = taille du territoire ; × = annulé (un autre "
                        "a la même taille).",
    "lppg.pile": "Pioche {name}",
    "lppg.cards.one": "{n} carte",
    "lppg.cards.other": "{n} cartes",
    "lppg.discard": "Défausse",
    "lppg.face_down.one": "{n} cachée",
    "lppg.face_down.other": "{n} cachées",
    "lppg.no_cards": "aucune carte",
    "lppg.hand.title": "Votre main, {name}",
    "lppg.hand.private": "{role} · privé : vous seul la voyez",
    "lppg.hand.your_turn": "à vous : posez une carte",
    "lppg.hand.empty": "Aucune carte en main.",
    "lppg.hand.slot": "Carte {n}",
    "lppg.hand.hidden": "cachée",
    "lppg.hand.legend": "x,y = la case en haut à gauche du cadre de la carte ; les rotations "
                        "tournent dans le sens horaire.",
    "colour.white": "blanche",
    "colour.red": "rouge",
    "colour.blue": "bleue",
    "colour.green": "verte",
    "colour.yellow": "jaune",
    "kolory.group": "plus grand groupe {group}",
    "kolory.group_left": "groupe {group} · reste {left}",
    "kolory.group_cards_left": "plus grand groupe {group} · {left} cartes en main",
    "kolory.round": "manche {n}/{total}",
    "kolory.placed": "{n} cartes posées",
    "kolory.order": "Manche {n} :",
    "kolory.legend.play": "Tapez x,y : la case en haut à gauche de votre carte. "
                          "{n} cartes chacun.",
    "kolory.legend.over": "Score : le plus grand groupe de cases reliées de chaque couleur.",
    "bracket.final": "Finale",
    "bracket.semi": "Demi-finales",
    "bracket.quarter": "Quarts de finale",
    "bracket.round": "Tour {n}",
}
# French typography, written once: a no-break space before the two-part punctuation.
FR = {key: text.replace(" :", NBSP + ":").replace(" ;", NBSP + ";") for key, text in FR.items()}

TABLES: dict[str, Mapping[str, str]] = {"en": EN, "fr": FR}
LANGUAGES = tuple(TABLES)


#: Each language's CLDR plural rule, from Babel (as the bot's texts use): French says "0 carte"
#: and "1 carte", English "0 cards".
PLURAL: dict[str, Callable[[float], str]] = {
    lang: Locale.parse(lang).plural_form for lang in TABLES}


def language(lang: str | None) -> str:
    """The table for a language tag: ``"fr"``, ``"fr-FR"`` and ``"fr_CA"`` are French; an
    unknown language gets English."""
    base = (lang or "en").replace("_", "-").split("-")[0].lower()
    return base if base in TABLES else "en"


class Words:
    """The words of one language: ``words("fr")("header.move", n=3)``."""

    def __init__(self, lang: str) -> None:
        self.lang = language(lang)
        self.table = TABLES[self.lang]

    def __call__(self, key: str, **params: object) -> str:
        template = self.table.get(key)
        if template is None:
            template = EN[key]  # a key missing from a language still reads
        if not params:
            return template
        # French: "À l'IA (moyen) de jouer", "d'Alak" (the word filled in decides).
        return fill(template, params) if self.lang == "fr" else template.format(**params)

    def count(self, key: str, n: float, **params: object) -> str:
        """A counted phrase: ``key.one`` or ``key.other`` by the language's plural rule."""
        form = PLURAL[self.lang](abs(n))
        if f"{key}.{form}" not in self.table and f"{key}.{form}" not in EN:
            form = "other"  # a category the words do not use ("many" in French)
        return self(f"{key}.{form}", n=n, **params)

    def seat(self, english_name: str) -> str:
        """A seat name the engine gives in English, in this language (unknown names as is)."""
        key = "seat." + "_".join(english_name.lower().split())
        return self.table.get(key, english_name)


_WORDS = {lang: Words(lang) for lang in LANGUAGES}


def words(lang: str | None) -> Words:
    return _WORDS[language(lang)]
