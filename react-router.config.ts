import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's behaviour, taken now (docs/decisions/0033-demo-data-and-safe-start.md), so the
  // build stops printing a warning per undecided flag. v8_passThroughRequests stays off on
  // purpose: with it, loaders and actions see the raw `.data` URL in `request.url`, and ours read
  // `request.url` for filters, redirects and links; moving them to the `url` argument is a change
  // of its own.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_passThroughRequests: false,
  },
} satisfies Config;
