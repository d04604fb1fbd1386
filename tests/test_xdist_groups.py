"""The suite's expensive fixtures are built once because ``xdist_group`` keeps a group's tests on
one worker (``make test`` runs ``--dist loadgroup``; ``conftest.py`` makes that work on pytest 9).
A test in a group carries the group in its id when, and only when, grouping is on."""
import os

import pytest

from conftest import _group_names


@pytest.mark.xdist_group("self_check")
def test_a_grouped_test_carries_its_group(request):
    assert _group_names(request.node) == ["self_check"]
    if not (os.environ.get("PYTEST_XDIST_WORKER") and getattr(request.config.option, "loadgroup", False)):
        pytest.skip("not run under pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@self_check"), request.node.nodeid


def test_an_ungrouped_test_keeps_its_id(request):
    assert _group_names(request.node) == []
    assert "@" not in request.node.nodeid
