"""Object storage for uploaded manuscripts."""

from fastapi import UploadFile


async def put(manuscript_id: str, file: UploadFile) -> None:
    data = await file.read()
    _backend().write(manuscript_id, data)


def _backend():
    from bindery_api.settings import storage_backend

    return storage_backend()
