"""What makes a check of changed files quick stays correct: the time budget's handler kept
installed across a game's templates still stops a slow one and is put back afterwards."""
from __future__ import annotations

import signal
import time

import pytest

from cardforge import budget


def test_a_budget_session_still_stops_a_slow_evaluation_and_restores_the_handler(monkeypatch):
    def mine(signum, frame):
        raise AssertionError("the previous handler ran inside a budget")

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        monkeypatch.setattr(budget, "TIME_LIMIT", 0.2)
        with budget.budget_session():
            assert signal.getsignal(signal.SIGALRM) is budget._alarm
            for _ in range(3):
                with budget.budgeted():
                    pass  # quick evaluations: no alarm left behind
            time.sleep(0.3)
            with pytest.raises(budget.BudgetExceeded, match="ran for more than"):
                with budget.budgeted():
                    time.sleep(2)  # stopped by SIGALRM after 0.2 s
            assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is mine
        with pytest.raises(budget.BudgetExceeded):
            with budget.budgeted():  # outside a session: installed for the one evaluation
                time.sleep(2)
        assert signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.signal(signal.SIGALRM, previous)
