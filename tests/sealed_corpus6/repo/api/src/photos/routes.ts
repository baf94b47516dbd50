import type { FastifyInstance } from "fastify";
import { CHUNK_SIZE, MAX_PHOTO_BYTES } from "./upload.js";

export function registerPhotos(app: FastifyInstance): void {
  app.post("/v2/photos/initiate", async (req) => {
    const { bytes } = req.body as { bytes: number };
    if (bytes > MAX_PHOTO_BYTES) throw new Error("photo too large");
    return { parts: Math.ceil(bytes / CHUNK_SIZE) };
  });
}
