from app.fines import FINE_CAP_CENTS, compute_fine


def test_grace_period_is_free():
    assert compute_fine("book", 2) == 0


def test_grace_days_count_once_past_grace():
    assert compute_fine("book", 3) == 75


def test_cap():
    assert compute_fine("dvd", 40) == FINE_CAP_CENTS


def test_children_collection_is_fine_free():
    assert compute_fine("book", 30, collection="children") == 0
