import Fastify from "fastify";
import { registerSync } from "./sync/routes.js";
import { registerPhotos } from "./photos/routes.js";

const app = Fastify({ logger: true, bodyLimit: 8 * 1024 * 1024 });

app.get("/health", async () => ({ ok: true }));
registerSync(app);
registerPhotos(app);

const port = Number(process.env.PORT ?? 8080);
app.listen({ port, host: "0.0.0.0" });
