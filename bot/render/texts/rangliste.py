"""The server leaderboard by period and page, the rating list, a player's statistics."""

from __future__ import annotations

DE: dict[str, str] = {
    "rl_title": "Rangliste · {zeitraum}",
    "rl_title_rating": "Wertungsliste",
    "rl_line": "{rank}. {name} – {points:+d} Punkte ({games} Spiele, {wins} gewonnen)",
    "rl_line_rating": "{rank}. {name} – Wertung {rating} ({games} Spiele)",
    "rl_empty": "Im Zeitraum »{zeitraum}« hat in diesem Server noch niemand ein Spiel beendet.",
    "rl_empty_rating": "In der Wertungsliste steht man ab {min} beendeten Spielen in diesem "
    "Server; so weit ist noch niemand.",
    "rl_footer": "Seite {page} von {pages} · {total} Spieler",
    "rl_footer_rating": "Seite {page} von {pages} · {total} Spieler mit mindestens {min} "
    "Spielen · alle Spiele zählen · /doko hilfe erklärt die Wertung",
    "rl_moved": "Seite {asked} gibt es nicht (mehr); hier ist Seite {page}.",
    "rl_prev": "Zurück",
    "rl_next": "Weiter",
    "rl_stale": "Dieser Knopf gehört zu einer alten Rangliste. /doko rangliste zeigt die aktuelle.",
    "rl_bad_month": "Den Monat bitte als MM.JJJJ oder JJJJ-MM angeben, z. B. 11.2026.",
    "zr_all": "alle Spiele",
    "zr_season": "Saison {number}/{year} ({first}–{last})",
    "month_names": "Januar Februar März April Mai Juni Juli August September Oktober "
    "November Dezember",
    "st_title": "Statistik: {name} · {zeitraum}",
    "st_none": "{name} hat im Zeitraum »{zeitraum}« in diesem Server kein Spiel beendet.",
    "st_points": "{points:+d} Punkte in {games} Spielen ({per_game} pro Spiel) · Platz {rank} "
    "der Rangliste",
    "st_wins": "Gewonnen: {wins} von {games} ({rate} %)",
    "st_solos": "Soli: {solos} gespielt, {solos_won} gewonnen",
    "st_solos_none": "Soli: keines gespielt",
    "st_parties": "Re in {re} % der Spiele, Kontra in {kontra} %",
    "st_calls": "Ansagen: in {called} Spielen angesagt, {won} davon gewonnen ({rate} %)",
    "st_calls_none": "Ansagen: in keinem Spiel",
    "st_rating": "Wertung: **{rating}** · Platz {rank} der Wertungsliste ({games} Spiele)",
    "st_rating_unranked": "Wertung: **{rating}** · in der Wertungsliste ab {min} Spielen "
    "(bisher {games})",
    "st_rating_all": "Die Wertung zählt immer alle Spiele in diesem Server.",
    "pic_running_title": "Punkteverlauf · {zeitraum}",
    "pic_running_alt": "Punkteverlauf von {name} über {n} Spiele ({zeitraum}): zuletzt "
    "{last:+d}, höchstens {high:+d}, tiefstens {low:+d}.",
    "help_rating_title": "Rangliste und Wertung",
    "help_rating": (
        "**/doko rangliste** zeigt die Punkte aller Spiele, dieses oder letzten Monats, "
        "dieser Saison (ein Vierteljahr: Januar–März ist Saison 1) oder eines Monats "
        "(`monat: 11.2026`), 20 Spieler je Seite. Mit `nach: Wertung` sortiert sie nach "
        "der Wertung.\n"
        "Die **Wertung** schätzt die Spielstärke aus Sieg und Niederlage jedes Spiels "
        "(OpenSkill, wie stark Partner und Gegner waren, zählt mit). Sie ist vorsichtig: "
        "die Schätzung minus drei Unsicherheiten, als 1000 + 40 × (μ − 3σ). Alle beginnen "
        "bei 1000; weil jedes Spiel die Unsicherheit verkleinert, steigt die Zahl bei den "
        "meisten mit der Zeit, bei guten Spielern schneller. In der Wertungsliste steht "
        "man ab {min} Spielen in diesem Server; jeder Server hat seine eigene Wertung.\n"
        "**/doko statistik** zeigt Punkte, Siege, Soli, Re/Kontra und Ansagen im gewählten "
        "Zeitraum, mit dem Punkteverlauf als Bild."
    ),
}

EN: dict[str, str] = {
    "rl_title": "Leaderboard · {zeitraum}",
    "rl_title_rating": "Rating list",
    "rl_line": "{rank}. {name} – {points:+d} points ({games} games, {wins} won)",
    "rl_line_rating": "{rank}. {name} – rating {rating} ({games} games)",
    "rl_empty": "Nobody has finished a game in this server in “{zeitraum}” yet.",
    "rl_empty_rating": "Players join the rating list after {min} finished games in this "
    "server; nobody has got that far yet.",
    "rl_footer": "Page {page} of {pages} · {total} players",
    "rl_footer_rating": "Page {page} of {pages} · {total} players with at least {min} games · "
    "every game counts · /doko help explains the rating",
    "rl_moved": "There is no page {asked} (any more); this is page {page}.",
    "rl_prev": "Back",
    "rl_next": "Next",
    "rl_stale": "This button belongs to an old leaderboard. /doko leaderboard shows the "
    "current one.",
    "rl_bad_month": "Give the month as MM.YYYY or YYYY-MM, e.g. 11.2026.",
    "zr_all": "all games",
    "zr_season": "season {number}/{year} ({first}–{last})",
    "month_names": "January February March April May June July August September October "
    "November December",
    "st_title": "Statistics: {name} · {zeitraum}",
    "st_none": "{name} has not finished a game in this server in “{zeitraum}”.",
    "st_points": "{points:+d} points in {games} games ({per_game} per game) · rank {rank} on "
    "the leaderboard",
    "st_wins": "Won: {wins} of {games} ({rate} %)",
    "st_solos": "Solos: {solos} played, {solos_won} won",
    "st_solos_none": "Solos: none played",
    "st_parties": "Re in {re} % of the games, Kontra in {kontra} %",
    "st_calls": "Calls: made in {called} games, {won} of them won ({rate} %)",
    "st_calls_none": "Calls: in no game",
    "st_rating": "Rating: **{rating}** · rank {rank} on the rating list ({games} games)",
    "st_rating_unranked": "Rating: **{rating}** · on the rating list from {min} games "
    "(so far {games})",
    "st_rating_all": "The rating always counts every game in this server.",
    "pic_running_title": "Running points · {zeitraum}",
    "pic_running_alt": "Running points of {name} over {n} games ({zeitraum}): last "
    "{last:+d}, highest {high:+d}, lowest {low:+d}.",
    "help_rating_title": "Leaderboard and rating",
    "help_rating": (
        "**/doko leaderboard** shows the points of all games, this or last month, this "
        "season (a quarter: January–March is season 1) or a chosen month "
        "(`month: 11.2026`), 20 players a page. With `by: Rating` it sorts by rating.\n"
        "The **rating** estimates playing strength from every game won or lost (OpenSkill: "
        "how strong partners and opponents were counts too). It is cautious: the estimate "
        "minus three uncertainties, shown as 1000 + 40 × (μ − 3σ). Everyone starts at 1000; "
        "as each game shrinks the uncertainty, the figure rises over time for most players, "
        "faster for those who play well. "
        "Players join the rating list after {min} games in this server; each server has "
        "its own ratings.\n"
        "**/doko stats** shows points, wins, solos, Re/Kontra and calls over the chosen "
        "period, with the running points as a picture."
    ),
}
