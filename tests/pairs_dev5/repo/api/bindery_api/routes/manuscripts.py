import uuid

from fastapi import APIRouter, UploadFile

from bindery_api import storage

router = APIRouter(prefix="/manuscripts")


@router.post("")
async def upload_manuscript(file: UploadFile) -> dict[str, str]:
    manuscript_id = str(uuid.uuid4())
    await storage.put(manuscript_id, file)
    return {"id": manuscript_id, "status": "queued"}
