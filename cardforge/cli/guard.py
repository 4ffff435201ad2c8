"""The last line of defence: an unexpected exception becomes one ``internal-error`` line.

Every ``cardforge`` command runs inside :func:`guarded` (which also sets the process's
garbage collector to cardforge's pace: :func:`cardforge.util.processes.pace_collector`).
Bad input never gets here (it is a located diagnostic long before); what does is a bug in
cardforge. The user sees one diagnostic asking them to report it, the full traceback goes
to a log file (``$XDG_STATE_HOME/cardforge/`` or the temporary folder), and the command
exits 2. Output piped to a reader that stops early (``| head``) is not a bug: the command
ends quietly with exit code 141, as one stopped by ``SIGPIPE``.
"""
from __future__ import annotations

import functools
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

import typer

from cardforge.util.diagnostics import INTERNAL_ERROR, diag
from cardforge.util.processes import pace_collector

# how commands end on purpose (exit codes, usage errors): not internal errors. Typer's
# click exceptions (its own copy of click, or click itself in older releases) and, when
# something imported click, click's own.
_PASS_THROUGH = (typer.Exit, typer.Abort, typer.BadParameter.__mro__[2], KeyboardInterrupt, SystemExit)


def _ends_on_purpose() -> tuple[type[BaseException], ...]:
    click = sys.modules.get("click")
    if click is None:
        return _PASS_THROUGH
    return _PASS_THROUGH + (click.exceptions.Exit, click.exceptions.Abort, click.ClickException)

EXIT_INTERNAL = 2
EXIT_PIPE_CLOSED = 141  # what a shell reports for a command stopped by SIGPIPE (128 + 13), as git exits
REPORTING = 'the README\'s "Reporting a bug" section'  # what to send, and where


def _log_folder() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(base) / "cardforge"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    return Path(tempfile.gettempdir())


def report_internal_error(exc: BaseException) -> Path | None:
    """Write the traceback of ``exc`` to a log file and print the ``internal-error`` line.

    Returns the log file's path (None when no log could be written).
    """
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    log: Path | None = None
    try:
        fd, name = tempfile.mkstemp(prefix=time.strftime("internal-error-%Y%m%d-%H%M%S-"), suffix=".log",
                                    dir=_log_folder())
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f"cardforge {' '.join(sys.argv[1:])}\n\n{text}")
        log = Path(name)
    except OSError:
        pass
    where = f"the log file {log}" if log else "the traceback below (no log file could be written)"
    d = diag(INTERNAL_ERROR, f"cardforge failed inside ({type(exc).__name__}: {str(exc)[:200]}); this is a bug, "
             f"not a mistake in your files. Please report it as {REPORTING} says: the command you ran, "
             f"the output of `cardforge --version`, and {where}"
             + ("" if log else ":\n" + text))
    print(d.format(), file=sys.stderr)
    return log


def quiet_stdout() -> None:
    """Point standard output at the null device, so that nothing more written to it (the
    flush as Python exits included) fails: what is left when its reader has gone."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's captured stream)
        pass


def guarded(func):
    """Wrap a command so that an unexpected exception is reported and exits 2 (see module doc)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        pace_collector()
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:  # stdout read no further (``cardforge cache info | head -3``): not a bug
            quiet_stdout()
            raise typer.Exit(EXIT_PIPE_CLOSED) from None
        except Exception as exc:  # noqa: BLE001 - the point of this function
            if isinstance(exc, _ends_on_purpose()):
                raise
            report_internal_error(exc)
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper


def guarded_typer():
    """A ``typer.Typer`` class whose every ``@app.command()`` runs :func:`guarded`, started
    lean (:class:`cardforge.cli.params.LeanTyper`)."""
    from cardforge.cli.params import LeanTyper

    class GuardedTyper(LeanTyper):
        def command(self, *args, **kwargs):
            register = super().command(*args, **kwargs)

            def decorator(func):
                register(guarded(func))
                return func

            return decorator

    return GuardedTyper
