"""Errors raised by the store. Every one is a :class:`StoreError` with a message for humans."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of everything the store raises on purpose."""


class CorruptDatabaseError(StoreError):
    """The file is not a SQLite database, or it is damaged beyond opening."""


class ForeignDatabaseError(StoreError):
    """The file is a database, but another application's."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of doko than this one."""


class SchemaOutdatedError(StoreError):
    """The database needs migrations that were not applied (run ``python -m db upgrade``)."""


class MigrationError(StoreError):
    """A migration file is malformed or failed; the database stays at its previous version."""


class ConstraintError(StoreError):
    """A write broke a constraint (unique key, foreign key, check)."""


class NotFoundError(StoreError):
    """The row asked for does not exist."""


class VersionConflictError(StoreError):
    """An optimistic update lost: the row's version is no longer the one the caller read."""

    def __init__(self, message: str, *, current_version: int) -> None:
        super().__init__(message)
        self.current_version = current_version


class DuplicateActionError(StoreError):
    """The action's sequence number is already stored: it must not be applied twice."""


class ActionGapError(StoreError):
    """The action's sequence number skips ahead: the log would have a hole."""


class GameNotRunningError(StoreError):
    """The game is finished or aborted; no more actions or results may be stored."""
