"""Write cardforge's own catalogs of fixed words: cardforge/locale/<lang>/LC_MESSAGES/cardforge.po.

The words cardforge itself prints (headings, notes, the rules sheet's fold steps, the
almanac's table headers) pass through :func:`cardforge.util.i18n.gettext`; this table holds
each in English with its Spanish, French and German, and writes the four catalogs with
Babel (English: every entry its own word). Run it after adding a fixed word:

    .venv/bin/python tools/fixed_words.py

``tests/test_translations.py`` fails on a word the code passes to gettext that a catalog lacks.
"""
from __future__ import annotations

import io
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import write_po  # noqa: E402

from cardforge.almanac.odds import ODDS_HEADING, ODDS_NOTE  # noqa: E402
from cardforge.documents.playertext import RULING_NOTE  # noqa: E402
from cardforge.documents.rulebook import (ANATOMY, COMPONENTS, EVERY_CARD, EVERY_CARD_NOTE, GLOSSARY,  # noqa: E402
                                          ICON_LEGEND, RULES)
from cardforge.model import DESIGNED_NOTE  # noqa: E402
from cardforge.util.i18n import LOCALE  # noqa: E402

LANGS = ("es", "fr", "de")
STAMP = datetime(2026, 11, 26, tzinfo=timezone.utc)  # fixed: the catalogs change only when a word does
WORDS: dict[str, tuple[str, str, str]] = {
    GLOSSARY: ("Glosario", "Glossaire", "Glossar"),
    ICON_LEGEND: ("Iconos", "Icônes", "Symbole"),
    EVERY_CARD: ("Apéndice: todas las cartas", "Annexe : toutes les cartes", "Anhang: alle Karten"),
    EVERY_CARD_NOTE: ("Cada carta con su texto tal como se imprime, con las erratas de esta edición.",
                      "Chaque carte avec son texte tel qu'il est imprimé, errata de cette édition compris.",
                      "Jede Karte mit ihrem Text, wie er gedruckt ist, mit den Errata dieser Ausgabe."),
    COMPONENTS: ("Componentes", "Matériel", "Spielmaterial"),
    ANATOMY: ("Partes de una carta", "Anatomie d'une carte", "Aufbau einer Karte"),
    RULES: ("Reglas", "Règles", "Regeln"),
    "Rulebook": ("Reglamento", "Livret de règles", "Spielregel"),
    "A card of each kind, its parts numbered.": ("Una carta de cada tipo, con sus partes numeradas.",
                                                 "Une carte de chaque type, ses parties numérotées.",
                                                 "Eine Karte jeder Art, ihre Teile nummeriert."),
    "Contents": ("Índice", "Sommaire", "Inhalt"),
    DESIGNED_NOTE: ("† diseñado o restaurado para esta edición († en la esquina de una carta: todos sus valores)",
                    "† conçu ou restauré pour cette édition († dans le coin d'une carte : toutes ses valeurs)",
                    "† für diese Ausgabe entworfen oder ergänzt († in der Ecke einer Karte: alle ihre Werte)"),
    RULING_NOTE: ("[R1] marca una aclaración de esta edición donde las reglas originales dejan una duda (el "
                  "reglamento las lista en Sobre esta edición)",
                  "[R1] marque une décision de cette édition là où les règles d'origine laissent une question "
                  "ouverte (le livret de règles les liste dans À propos de cette édition)",
                  "[R1] markiert eine Entscheidung dieser Ausgabe, wo die Originalregeln eine Frage offen lassen "
                  "(die Spielregel listet sie unter Über diese Ausgabe)"),
    ODDS_HEADING: ("Probabilidades de un robo", "Les chances d'une pioche", "Die Chancen beim Ziehen"),
    ODDS_NOTE: ("La probabilidad, con el mazo recién barajado, de que las cartas que robas tengan al menos una, "
                "ninguna o exactamente tantas de las cartas nombradas, calculada con cada carta y su cantidad.",
                "La chance, avec une pile fraîchement mélangée, que les cartes piochées contiennent au moins une, "
                "aucune ou exactement tant des cartes nommées, calculée exactement à partir de chaque carte et de "
                "sa quantité.",
                "Die Chance, aus einem frisch gemischten Stapel mindestens eine, keine oder genau so viele der "
                "genannten Karten zu ziehen, genau berechnet aus jeder Karte und ihrer Anzahl."),
    "Card almanac": ("Almanaque de cartas", "Almanach des cartes", "Kartenverzeichnis"),
    "Every card of the game, by type, with its quantity.": ("Todas las cartas del juego, por tipo, con su cantidad.",
                                                            "Toutes les cartes du jeu, par type, avec leur quantité.",
                                                            "Alle Karten des Spiels, nach Art, mit ihrer Anzahl."),
    "Index": ("Índice alfabético", "Index", "Register"),
    "Print one per player.": ("Imprime una por jugador.", "Imprimez-en une par joueur.", "Einmal je Spieler drucken."),
    "helper sheet": ("hoja de ayuda", "aide de jeu", "Übersichtsblatt"),
    "Cards drawn": ("Cartas robadas", "Cartes piochées", "Gezogene Karten"),
    "at least one": ("al menos una", "au moins une", "mindestens eine"),
    "none": ("ninguna", "aucune", "keine"),
    "exactly {k}": ("exactamente {k}", "exactement {k}", "genau {k}"),
    "{n} player": ("{n} jugador", "{n} joueur", "{n} Spieler"),
    "{n} players": ("{n} jugadores", "{n} joueurs", "{n} Spieler"),
    "{low}–{high} players": ("{low}–{high} jugadores", "{low} à {high} joueurs", "{low}–{high} Spieler"),
    "{span} minutes": ("{span} minutos", "{span} minutes", "{span} Minuten"),
    "{span} min": ("{span} min", "{span} min", "{span} Min."),
    "ages {age}+": ("desde {age} años", "dès {age} ans", "ab {age} Jahren"),
    "rules sheet · front": ("hoja de reglas · anverso", "feuille de règles · recto", "Regelblatt · Vorderseite"),
    "rules sheet · back (long-edge duplex)": ("hoja de reglas · reverso (dúplex por el borde largo)",
                                              "feuille de règles · verso (recto verso bord long)",
                                              "Regelblatt · Rückseite (Duplex, lange Kante)"),
    "1. Cut along the solid line to get a 6.25 x 8 in double-sided sheet.": (
        "1. Corta por la línea continua: queda una hoja de 6.25 x 8 in impresa por las dos caras.",
        "1. Découpez le long du trait plein : une feuille recto verso de 6.25 x 8 in.",
        "1. Entlang der durchgezogenen Linie schneiden: ein beidseitiges Blatt von 6.25 x 8 in."),
    "2. Fold along the dotted lines into an accordion, the title panel on top.": (
        "2. Dobla por las líneas de puntos en acordeón, con el panel del título arriba.",
        "2. Pliez en accordéon le long des pointillés, le panneau du titre dessus.",
        "2. Entlang der gepunkteten Linien zur Ziehharmonika falten, das Titelfeld oben."),
    "3. Fold the 6.25 x 2 in strip in half, right half under, to 3.125 x 2 in.": (
        "3. Dobla la tira de 6.25 x 2 in por la mitad, la mitad derecha debajo: 3.125 x 2 in.",
        "3. Pliez la bande de 6.25 x 2 in en deux, moitié droite dessous : 3.125 x 2 in.",
        "3. Den Streifen von 6.25 x 2 in halbieren, rechte Hälfte nach unten: 3.125 x 2 in."),
    "by {designer}": ("de {designer}", "de {designer}", "von {designer}"),
    "<b>Quick-start rules</b> (the full rules are in the rulebook)": (
        "<b>Reglas rápidas</b> (las reglas completas están en el reglamento)",
        "<b>Règles rapides</b> (les règles complètes sont dans le livret)",
        "<b>Schnellstart</b> (die vollständigen Regeln stehen in der Spielregel)"),
    "Notes": ("Notas", "Notes", "Notizen"),
    "cards": ("cartas", "cartes", "Karten"),
    "other cards": ("otras cartas", "autres cartes", "andere Karten"),
    "card type": ("tipo de carta", "type de carte", "Kartenart"),
    "{stack}: {size} cards": ("{stack}: {size} cartas", "{stack} : {size} cartes", "{stack}: {size} Karten"),
    "{stack}: {size} cards, {hits} of them {cards}.": ("{stack}: {size} cartas, {hits} de ellas {cards}.",
                                                       "{stack} : {size} cartes, dont {hits} {cards}.",
                                                       "{stack}: {size} Karten, davon {hits} {cards}."),
    "Back: {label}": ("Dorso: {label}", "Dos : {label}", "Rückseite: {label}"),
    "Your turn": ("Tu turno", "Votre tour", "Dein Zug"),
    "Icons": ("Iconos", "Icônes", "Symbole"),
    "End of the game": ("Fin de la partida", "Fin de la partie", "Spielende"),
    "rulebook": ("reglamento", "livret de règles", "Spielregel"),
    "reference": ("referencia", "aide de jeu", "Übersicht"),
    "Designed by {designer}": ("Un juego de {designer}", "Un jeu de {designer}", "Ein Spiel von {designer}"),
    "see the helper sheet (reference.pdf).": ("ver la hoja de ayuda (reference.pdf).", "voir l'aide de jeu (reference.pdf).",
                                              "siehe Übersichtsblatt (reference.pdf)."),
    "(continued)": ("(continúa)", "(suite)", "(Fortsetzung)"),
    "Turn summary": ("Resumen del turno", "Résumé du tour", "Zugübersicht"),
    "**You also need** (not printed):": ("**También necesitas** (no impreso):", "**Il vous faut aussi** (non imprimé) :",
                                         "**Außerdem braucht ihr** (nicht gedruckt):"),
    "per player": ("por jugador", "par joueur", "je Spieler"),
}


def catalog_text(lang: str) -> bytes:
    """The .po text of cardforge's fixed words in ``lang`` ("en": each word itself)."""
    catalog = Catalog(locale=lang, domain="cardforge", project="cardforge", version="", fuzzy=False,
                      header_comment="# cardforge's own fixed words (headings, notes, fold steps, table headers).\n"
                                     "# Written by tools/fixed_words.py: edit the table there, then run it.\n#",
                      creation_date=STAMP, revision_date=STAMP,
                      last_translator="cardforge", language_team=lang)
    for english, words in WORDS.items():
        string = english if lang == "en" else words[LANGS.index(lang)]
        catalog.add(english, string)
        catalog[english].flags -= {"python-format", "python-brace-format"}
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True)
    return out.getvalue()


def main() -> None:
    for lang in ("en", *LANGS):
        path = LOCALE / lang / "LC_MESSAGES" / "cardforge.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(catalog_text(lang))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
