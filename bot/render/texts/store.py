"""When the store refuses a write (disk full, I/O error, database locked, connection lost)."""

from __future__ import annotations

DE: dict[str, str] = {
    "err_store_failed": (
        "Konnte nicht speichern, es hat sich nichts geändert. Bitte versuch es gleich noch einmal."
    ),
}

EN: dict[str, str] = {
    "err_store_failed": "Could not save, nothing changed. Please try again in a moment.",
}
