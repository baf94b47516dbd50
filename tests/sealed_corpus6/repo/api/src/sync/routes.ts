import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { MAX_BATCH } from "./constants.js";
import { mergeChanges } from "./merge.js";

const SyncBody = z.object({
  deviceId: z.string().uuid(),
  since: z.string(),
  changes: z.array(z.unknown()).max(MAX_BATCH),
});

export function registerSync(app: FastifyInstance): void {
  app.post("/v2/sync", async (req) => {
    const body = SyncBody.parse(req.body);
    return mergeChanges(body.deviceId, body.since, body.changes);
  });
}
