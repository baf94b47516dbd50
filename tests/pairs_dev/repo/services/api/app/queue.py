
import json
import uuid

import redis

QUEUE_NAME = "reelforge:jobs"
MAX_ATTEMPTS = 3


class JobQueue:
    """Thin wrapper over a Redis list that the transcode workers consume."""

    def __init__(self, url: str = "redis://localhost:6379/0") -> None:
        self._redis = redis.Redis.from_url(url)

    def enqueue_job(self, asset_id: str, preset: str) -> str:
        job_id = uuid.uuid4().hex
        payload = {"id": job_id, "asset_id": asset_id, "preset": preset,
                   "attempts_left": MAX_ATTEMPTS}
        self._redis.rpush(QUEUE_NAME, json.dumps(payload))
        return job_id
