// The real production server (server/app-server.ts over the React Router build), in a process of
// its own so the load generator does not share its event loop. Started by bench/api-key-auth.ts.
import { join } from "node:path";

process.env.NODE_ENV = "production";
const port = Number(process.env.PORT);
const { createAppServer } = await import("../../server/app-server.ts");
const app = await createAppServer({ buildDir: join(import.meta.dirname, "..", "..", "build"), trustProxy: false });
app.server.listen(port, "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
