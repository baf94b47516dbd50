"""`cards watch`: keep INDEX.md current while cards are edited; print findings for changed cards.

Findings go to stdout in `cards lint`'s formats; one `index: ...` line per pass, and
what the watcher is doing, go to stderr. watchdog loads only once watching starts
(`cardindex.agents.watch.start_observer`), so `--once` never imports it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from types import FrameType

    from cardindex.agents.watch import Watcher
    from cardindex.lint.finding import Finding
    from cardindex.lint.formatters import Formatter
    from cardindex.store.vault import Vault


def run(
    *,
    vault: Vault,
    once: bool = False,
    debounce: float,
    poll: bool = False,
    output_format: str = "text",
) -> int:
    """Watch the vault until SIGINT or SIGTERM (exit 0); with `once`, one pass over every card.

    `once` exits like `cards lint`: 1 when any card has findings, else 0.
    """
    from cardindex.agents.watch import Watcher, lint_cards
    from cardindex.errors import UsageError
    from cardindex.lint.formatters import FORMATTERS, summary
    from cardindex.store.vault import today

    if debounce < 0:
        raise UsageError(f"--debounce must be 0 or more seconds, got {debounce:g}")
    watcher = Watcher(vault.root, use_cache=vault.use_cache)
    formatter = FORMATTERS[output_format](sys.stdout, vault.root)
    if not once:
        return _watch(vault, watcher, formatter, debounce=debounce, poll=poll)
    now = today()
    fresh, cards, change = watcher.refresh(now)
    _say(change.summary(first=True))
    findings = lint_cards(fresh, cards, cards, now)
    _show(formatter, findings)
    watcher.remember_ranking()
    if findings and output_format == "text":
        _say(summary(findings, len(cards)))
    return 1 if any(f.severity == "error" for f in findings) else 0  # warnings never fail, as in `cards lint`


def _watch(vault: Vault, watcher: Watcher, formatter: Formatter, *, debounce: float, poll: bool) -> int:
    import logging
    import signal

    from cardindex.agents.watch import POLL_INTERVAL, Trigger, WatchdogLog, lint_cards, start_observer
    from cardindex.errors import CardIndexError, LockTimeout, UsageError
    from cardindex.store.os_errors import failure
    from cardindex.store.vault import today

    trigger = Trigger(debounce, max_delay=max(1.0, 10 * debounce))
    stop: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.append(signum)
        if signum == signal.SIGINT:
            signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C interrupts at once

    previous = {signum: signal.signal(signum, on_signal) for signum in (signal.SIGINT, signal.SIGTERM)}
    previous_fd = signal.set_wakeup_fd(trigger.wakeup_fd, warn_on_full_buffer=False)
    log = WatchdogLog(trigger.poke, _say)
    logging.getLogger("watchdog").addHandler(log)
    observer = None
    try:
        watcher.prepare(today(), _say)  # before the observer's threads: its records made on both cores
        try:
            observer, fallback = start_observer(vault.root, trigger.poke, index_name=vault.index_name, poll=poll,
                                                on_cards=trigger.poke)
        except OSError as exc:
            raise UsageError(f"cannot watch {vault.root}: {exc.strerror or exc}") from None
        if fallback:
            _say(f"warning: {fallback}")
        _, _, change = watcher.refresh(today())
        _say(change.summary(first=True))
        watcher.remember_ranking()
        how = f"polling every {POLL_INTERVAL:g} s" if poll or fallback else "inotify"
        _say(f"watching {vault.root} ({how}); Ctrl-C to stop")
        while trigger.wait(lambda: bool(stop)):
            if not vault.root.is_dir():
                _say(f"error: the vault folder {vault.root} is gone; stopped watching")
                return 1
            now = today()
            named = trigger.take()
            try:
                fresh, cards, change = watcher.refresh(now, named)
                _say(change.summary(first=False))
                changed = set(change.added) | set(change.changed)
                _show(formatter, lint_cards(fresh, cards, [c for c in cards if c.path in changed], now))
                watcher.remember_ranking()
            except LockTimeout as exc:  # another writer held the vault for CARDS_LOCK_TIMEOUT: try again
                _say(f"error: {exc}")
                trigger.poke()
            except CardIndexError as exc:  # a bad config, a hand-kept index: say so, keep watching
                _say(f"error: {exc}")
            except OSError as exc:  # a full disk, a vault made read-only: say so, keep watching
                if isinstance(exc, BrokenPipeError):
                    raise
                _say(f"error: {failure(exc)}")
        _say(f"stopped watching {vault.root}")
        return 0
    finally:
        log.quiet = True
        if observer is not None:
            observer.stop()
            observer.join(timeout=5)
        logging.getLogger("watchdog").removeHandler(log)
        signal.set_wakeup_fd(previous_fd)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        trigger.close()


def _show(formatter: Formatter, findings: list[Finding]) -> None:
    formatter.write(findings)
    sys.stdout.flush()


def _say(line: str) -> None:
    from cardindex.redaction import shown

    print(shown(line), file=sys.stderr, flush=True)


@click.command("watch")
@click.option("--once", is_flag=True,
              help="Bring INDEX.md up to date, print every card's findings, and exit (1 with findings, else 0).")
@click.option("--debounce", type=click.FloatRange(min=0), default=0.1, show_default=True, metavar="SECONDS",
              help="Quiet time after a change before the index is rebuilt.")
@click.option("--poll", is_flag=True, help="Scan the vault every second instead of using inotify.")
@click.option("--format", "output_format", type=click.Choice(["text", "json-lines"]), default="text",
              show_default=True, help="Output format of the findings.")
@click.pass_obj
def watch_command(obj: object, once: bool, debounce: float, poll: bool, output_format: str) -> None:
    """Keep INDEX.md current while cards are edited; print findings for changed cards.

    Each pass rebuilds the index from disk under the vault lock and prints one
    `index: ...` line on stderr; findings for the cards that changed go to stdout, as
    `cards lint` prints them. A card that stops parsing mid-edit is reported and keeps
    its last good index entry until it parses again. Ctrl-C or SIGTERM stops (exit 0).

    \b
    Examples:
      cards watch
      cards watch --format json-lines 2>/dev/null
      cards watch --once        # in scripts: exit 1 when any card has findings
    """
    vault = obj.open()  # type: ignore[attr-defined]
    code = run(vault=vault, once=once, debounce=debounce, poll=poll, output_format=output_format)
    click.get_current_context().exit(code)
