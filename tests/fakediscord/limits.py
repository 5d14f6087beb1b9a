"""Discord's documented message limits, checked the way Discord reports them (400 / 50035).

These come from the developer documentation rather than the OpenAPI spec where the two differ:
the spec allows ``content`` up to 4000 characters, but bots are limited to 2000
(resources/message "Create Message": "up to 2000 characters"); the spec also cannot express
"custom_id unique per message" or the 6000-character total over all embeds.
"""

from __future__ import annotations

from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
CUSTOM_ID_MIN, CUSTOM_ID_MAX = 1, 100
BUTTON, STRING_SELECT, ACTION_ROW = 2, 3, 1
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
# Components V2 (flag 1 << 15) have their own layout rules (40 components); not modelled here.
IS_COMPONENTS_V2 = 1 << 15

Path = tuple[str | int, ...]
FieldErrors = list[tuple[Path, str, str]]


def form_error_body(errors: FieldErrors) -> dict[str, Any]:
    """Discord's "Invalid Form Body" shape: errors nested by path, leaves under ``_errors``."""
    tree: dict[str, Any] = {}
    for path, code, message in errors:
        node = tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "errors": tree, "message": "Invalid Form Body"}


def check_message(body: dict[str, Any]) -> FieldErrors:
    """Limit violations in a message create/edit body (also interaction callback ``data``)."""
    errors: FieldErrors = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors.append(
            (("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
        )
    embeds = body.get("embeds") or []
    if isinstance(embeds, list):
        errors += _check_embeds(embeds)
    components = body.get("components") or []
    flags = body.get("flags") or 0
    if isinstance(components, list) and not (isinstance(flags, int) and flags & IS_COMPONENTS_V2):
        errors += _check_components(components)
    return errors


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def _check_embeds(embeds: list[Any]) -> FieldErrors:
    errors: FieldErrors = []
    if len(embeds) > MAX_EMBEDS:
        errors.append(
            (("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
        )
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        limits: list[tuple[Path, Any, int]] = [
            (("title",), embed.get("title"), 256),
            (("description",), embed.get("description"), 4096),
            (("footer", "text"), (embed.get("footer") or {}).get("text"), 2048),
            (("author", "name"), (embed.get("author") or {}).get("name"), 256),
        ]
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.append(
                (("embeds", i, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        for j, field in enumerate(fields):
            limits.append((("fields", j, "name"), field.get("name"), 256))
            limits.append((("fields", j, "value"), field.get("value"), 1024))
        for path, value, limit in limits:
            total += _len(value)
            if _len(value) > limit:
                errors.append(
                    (
                        ("embeds", i, *path),
                        "BASE_TYPE_MAX_LENGTH",
                        f"Must be {limit} or fewer in length.",
                    )
                )
    if total > MAX_EMBED_TOTAL:
        errors.append(
            (
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return errors


def _check_components(rows: list[Any]) -> FieldErrors:
    errors: FieldErrors = []
    if len(rows) > MAX_ACTION_ROWS:
        errors.append(
            (
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ACTION_ROWS} or fewer in length.",
            )
        )
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            continue
        children = row.get("components") or []
        selects = [c for c in children if isinstance(c, dict) and c.get("type") in SELECT_TYPES]
        if len(children) > MAX_ROW_BUTTONS or (selects and len(children) > 1):
            errors.append(
                (
                    ("components", r, "components"),
                    "BASE_TYPE_MAX_LENGTH",
                    "An action row holds up to 5 buttons or exactly one select menu.",
                )
            )
        for c, child in enumerate(children):
            if not isinstance(child, dict):
                continue
            where: Path = ("components", r, "components", c)
            custom_id = child.get("custom_id")
            if isinstance(custom_id, str):
                if not CUSTOM_ID_MIN <= len(custom_id) <= CUSTOM_ID_MAX:
                    errors.append(
                        (
                            (*where, "custom_id"),
                            "BASE_TYPE_BAD_LENGTH",
                            f"Must be between {CUSTOM_ID_MIN} and {CUSTOM_ID_MAX} in length.",
                        )
                    )
                if custom_id in seen:
                    errors.append(
                        (
                            (*where, "custom_id"),
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        )
                    )
                seen.add(custom_id)
            elif (
                child.get("type") == BUTTON and child.get("style") != 5 and not child.get("sku_id")
            ):
                # Non-link buttons need a custom_id; the spec marks it optional for link buttons.
                errors.append(
                    ((*where, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
                )
            if child.get("type") == STRING_SELECT:
                options = child.get("options") or []
                if len(options) > MAX_SELECT_OPTIONS:
                    errors.append(
                        (
                            (*where, "options"),
                            "BASE_TYPE_MAX_LENGTH",
                            f"Must be {MAX_SELECT_OPTIONS} or fewer in length.",
                        )
                    )
    return errors
