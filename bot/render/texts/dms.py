"""Closed DMs: what a player hears, once, when the bot cannot send them their hand."""

from __future__ import annotations

DE: dict[str, str] = {
    "dms_closed_notice": (
        "Ich kann dir keine Direktnachrichten schicken, deshalb kommen deine Karten nicht per "
        "DM. Spiel über »Meine Karten« an der Tischnachricht – oder erlaube DMs: "
        "Rechtsklick auf den Server → Privatsphäre-Einstellungen → »Direktnachrichten« an. "
        "Danach genügt ein /doko-Befehl (z. B. /doko karten), und die Karten kommen wieder "
        "per DM."
    ),
}

EN: dict[str, str] = {
    "dms_closed_notice": (
        "I cannot send you direct messages, so your cards do not come by DM. Play with "
        "“My cards” on the table message – or allow DMs: right-click the server → Privacy "
        "Settings → turn “Direct Messages” on. Then any /doko command (e.g. /doko cards) "
        "brings your cards back to your DMs."
    ),
}
