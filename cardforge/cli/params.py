"""The ``cardforge`` command started lean: only the command run is built, and its values
are converted without importing pydantic.

Typer builds every command of an application (reading each function's signature and
annotations) before it runs one; :class:`LeanTyper` builds only the command or command
group named on the command line (every command when the line names none, asks for help,
or names one that does not exist, so help and "no such command" read as usual).

Recent Typer releases convert every parameter value through a pydantic ``TypeAdapter``,
and importing pydantic costs about a fifth of a second: more than an unchanged
``cardforge build`` spends on everything else. The commands' parameters are plain (text,
paths, numbers with bounds, choices, lists of those), so :class:`LeanCommand` gives each
of them a converter that handles the well-formed value itself, calling Typer's own
``coerce_cli_choice`` and ``coerce_cli_path`` as its adapters do. Anything else (a value
that does not convert, an annotation not listed here) goes to Typer's own converter,
so a bad value is reported exactly as Typer reports it.

On a Typer without per-parameter converters (older releases convert through click's
types, without pydantic) :class:`LeanCommand` is Typer's command unchanged.
"""
from __future__ import annotations

import enum
import re
import sys
from pathlib import Path
from typing import Any, get_args, get_origin

import typer.core

try:  # Typer >= 0.2x: per-parameter converters (pydantic imported when the first is built)
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer._param_types import coerce_cli_choice, coerce_cli_path
except ImportError:  # pragma: no cover - an older Typer: nothing to replace
    RuntimeParam = None

_INT = re.compile(r"-?(0|[1-9][0-9]*)")  # what both read alike; anything else goes to Typer
_FLOAT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
_UNSURE = object()  # the lean converter leaves the value to Typer's


class LeanTyper(typer.Typer):
    """A Typer application of :class:`LeanCommand` commands that builds only the command run."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("cls", LeanGroup)
        super().__init__(*args, **kwargs)

    def command(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("cls", LeanCommand)
        return super().command(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        line = kwargs.get("args", args[0] if args else None)
        line = sys.argv[1:] if line is None else list(line)
        named = [info for info in self.registered_commands
                 if line and (info.name or typer.main.get_command_name(info.callback.__name__)) == line[0]]
        groups = [info for info in self.registered_groups if line and info.name == line[0]]
        if not named and not groups:
            return super().__call__(*args, **kwargs)
        every, every_group = self.registered_commands, self.registered_groups
        self.registered_commands, self.registered_groups = named, groups  # a command, or a group (cache ...)
        try:
            return super().__call__(*args, **kwargs)
        finally:
            self.registered_commands, self.registered_groups = every, every_group


class LeanCommand(typer.core.TyperCommand):
    """A Typer command whose parameters convert plain values without pydantic."""

    def get_params(self, ctx: Any) -> list:
        return _lean(super().get_params(ctx))


class LeanGroup(typer.core.TyperGroup):
    """A Typer group (the ``cardforge`` command itself) whose own options convert without pydantic."""

    def get_params(self, ctx: Any) -> list:
        return _lean(super().get_params(ctx))


def _lean(params: list) -> list:
    """Give each of ``params`` (a command's, with its --help) the lean converter; returns them."""
    if RuntimeParam is None:  # pragma: no cover
        return params
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # a flag takes no value: its help shows no "<bool>"
        if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
            descriptor = param.type_descriptor
            param._runtime_param = _Lean(descriptor.parameter_info, descriptor.annotation, descriptor)
    return params


if RuntimeParam is not None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class _Lean(RuntimeParam):
        """Converts a well-formed value of a plain type; hands anything else to Typer."""

        descriptor: Any

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                if get_origin(self.annotation) is list:
                    (item,) = get_args(self.annotation)
                    items = value if isinstance(value, (list, tuple)) else [value]
                    converted = [self._leaf(item, v, param, ctx) for v in items]
                    if all(v is not _UNSURE for v in converted):
                        return converted
                else:
                    converted = self._leaf(self.annotation, value, param, ctx)
                    if converted is not _UNSURE:
                        return converted
            except Exception:  # noqa: BLE001 - Typer's converter reports it in its own words
                pass
            return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

        def _leaf(self, annotation: Any, value: Any, param: Any, ctx: Any) -> Any:
            info = self.parameter_info
            if info.parser is not None:
                return _UNSURE
            if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
                return coerce_cli_choice(value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
            if annotation is str:
                return value if isinstance(value, str) else _UNSURE
            if annotation is bool:
                return value if isinstance(value, bool) else _UNSURE
            if annotation is int or annotation is float:
                return self._number(annotation, value)
            if isinstance(annotation, type) and issubclass(annotation, Path):
                path_type = info.path_type or annotation
                if isinstance(value, str) and value and "\0" not in value:
                    value = path_type(value)
                if not isinstance(value, path_type):
                    return _UNSURE
                return coerce_cli_path(value, info, path_type=path_type, param=param, ctx=ctx)
            return _UNSURE

        def _number(self, kind: type, value: Any) -> Any:
            info = self.parameter_info
            if isinstance(value, bool) or info.clamp:
                return _UNSURE
            if isinstance(value, str):
                if not (_INT if kind is int else _FLOAT).fullmatch(value):
                    return _UNSURE
                value = kind(value)
            elif kind is int and type(value) is not int or kind is float and type(value) not in (int, float):
                return _UNSURE
            value = kind(value)
            if info.min is not None and value < info.min or info.max is not None and value > info.max:
                return _UNSURE  # out of range: Typer says so
            return value
