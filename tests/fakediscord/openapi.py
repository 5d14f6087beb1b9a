"""Validate REST request bodies against Discord's official OpenAPI description.

The spec (``discord-openapi.json``, MIT, see ``OPENAPI-LICENSE``) is 1.2 MB, so it is parsed
and indexed once per process; validators are built lazily per operation and cached.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("discord-openapi.json")
_SPEC_URI = "urn:discord-openapi"
_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    """A documented route: ``method`` and ``template`` like ``/channels/{channel_id}/messages``."""

    method: str
    template: str
    regex: re.Pattern[str]
    literal_segments: int

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}"


@dataclass(frozen=True)
class SchemaError:
    """One validation failure: the JSON path into the body and jsonschema's message."""

    path: tuple[str | int, ...]
    message: str


class Spec:
    """The parsed spec, its routes, and cached per-operation validators."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = _documented_exceptions(document)
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(_SPEC_URI, resource)
        self._validators: dict[tuple[str, str, str], Draft202012Validator | None] = {}
        self.operations: list[Operation] = []
        for template, item in document["paths"].items():
            pattern = re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template))
            literal = sum(1 for part in template.split("/") if part and not part.startswith("{"))
            for method in _METHODS:
                if method in item:
                    self.operations.append(
                        Operation(method.upper(), template, re.compile(f"^{pattern}$"), literal)
                    )
        # A literal segment must win over a parameter: "/messages/@original" is its own route,
        # not "/messages/{message_id}" with message_id="@original".
        self.operations.sort(key=lambda op: -op.literal_segments)

    def match(self, method: str, path: str) -> Operation | None:
        """The documented operation for a concrete request path (without the API prefix)."""
        for op in self.operations:
            if op.method == method and op.regex.match(path):
                return op
        return None

    def validate(self, op: Operation, content_type: str, body: Any) -> list[SchemaError]:
        """Validate ``body`` against the operation's request schema for ``content_type``.

        Multipart bodies are validated as their ``payload_json`` against the JSON schema, which
        is what Discord does with them; an operation without a documented body accepts none.
        """
        validator = self._validator(op, content_type)
        if validator is None:
            if body is None:
                return []
            return [SchemaError((), f"{op.key} takes no request body")]
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        return [SchemaError(tuple(e.absolute_path), _describe(e)) for e in errors]

    def _validator(self, op: Operation, content_type: str) -> Draft202012Validator | None:
        key = (op.method, op.template, content_type)
        if key not in self._validators:
            body = self.document["paths"][op.template][op.method.lower()].get("requestBody")
            validator = None
            if body is not None and content_type in body["content"]:
                pointer = "/".join(
                    _escape(part)
                    for part in (
                        "paths",
                        op.template,
                        op.method.lower(),
                        "requestBody",
                        "content",
                        content_type,
                        "schema",
                    )
                )
                validator = Draft202012Validator(
                    {"$ref": f"{_SPEC_URI}#/{pointer}"}, registry=self._registry
                )
            self._validators[key] = validator
        return self._validators[key]


def _documented_exceptions(document: dict[str, Any]) -> dict[str, Any]:
    """Relax the spec where Discord's documentation (and live API) accept more.

    SnowflakeType is a decimal *string* in the spec, but requests may carry integer snowflakes:
    the docs' own "Uploading Files" example sends ``"attachments": [{"id": 0, ...}]``, and
    discord.py sends integers for e.g. ``recipient_id`` and attachment ids. Responses are
    not validated here, so only request parsing is widened.
    """
    schemas = document["components"]["schemas"]
    original = schemas["SnowflakeType"]
    if "anyOf" not in original:
        schemas["SnowflakeType"] = {"anyOf": [original, {"type": "integer", "minimum": 0}]}
    return document


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _leaves(error: Any) -> list[Any]:
    if not error.context:
        return [error]
    return [leaf for sub in error.context for leaf in _leaves(sub)]


def _describe(error: Any) -> str:
    """A short message; for unions, the deepest complaint (the branch that matched best).

    Among equally deep ones, a limit (maxLength, maxItems...) beats a type/enum mismatch,
    which is usually just a union branch that was never meant to match.
    """
    leaves = _leaves(error)
    best = max(
        leaves,
        key=lambda e: (len(e.absolute_path), e.validator not in ("type", "enum", "const")),
    )
    message = str(best.message)[:300]
    if best is not error and len(best.absolute_path) > len(error.absolute_path):
        return f"{message} (at {'/'.join(map(str, best.absolute_path))})"
    return message


@functools.cache
def load_spec() -> Spec:
    """The process-wide spec, parsed and indexed on first use."""
    with SPEC_PATH.open(encoding="utf-8") as f:
        return Spec(json.load(f))
