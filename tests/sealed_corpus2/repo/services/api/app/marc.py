from collections.abc import Iterable, Iterator

MARC_EXPORT_BATCH = 500


def normalize_isbn(raw: str) -> str:
    """Return the ISBN-13 for an ISBN-10 or ISBN-13, hyphens and spaces removed.

    Raises ValueError when the check digit is wrong.
    """
    digits = raw.replace("-", "").replace(" ", "").upper()
    if len(digits) == 10:
        total = sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(digits))
        if total % 11:
            raise ValueError(f"bad ISBN-10: {raw}")
        digits = "978" + digits[:9]
        check = (10 - sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10) % 10
        return digits + str(check)
    if len(digits) == 13:
        if sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10:
            raise ValueError(f"bad ISBN-13: {raw}")
        return digits
    raise ValueError(f"not an ISBN: {raw}")


def export_batches(records: Iterable[bytes]) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for rec in records:
        batch.append(rec)
        if len(batch) == MARC_EXPORT_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
