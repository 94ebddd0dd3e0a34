"""Issue 13's targets at the scale of the machine it was written on, for the bench scripts'
target checks (orders_targets.py, load_targets.py, console_targets.py).

The issue reads its targets "as ratios in one run so a noisy machine cannot fake them": its
figures were taken where the static index page served 46,900 requests/s (wrk, 2 threads, 64
connections, SQLite). A run measures a reference server's static page right before and
right after its figures (bench/lib.sh); their mean over 46,900 is the run's scale. A time
is multiplied by it, a rate divided by it.
"""

ISSUE_STATIC = 46_900


def scale(before: float, after: float) -> float:
    """The run's machine against the issue's: the reference's mean rate over 46,900/s."""
    return (before + after) / 2 / ISSUE_STATIC


def describe(what: str, before: float, after: float, during: str) -> str:
    """The line that opens a target check: the reference around `during`, and the scale."""
    return (
        f"{what}: reference static page {before:,.0f}/s before {during}, {after:,.0f}/s after; "
        f"{scale(before, after):.2f} of the {ISSUE_STATIC:,}/s of the machine issue 13 was written on"
    )


def yes(flag: bool) -> str:
    return "yes" if flag else "NO"
