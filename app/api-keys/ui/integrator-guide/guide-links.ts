// Where the integrator page links to, and where it is linked from (the keys page's header).
import { href } from "react-router";
import { KEYS_PAGE_PATH } from "~/api-keys/ui/key-page";

export const INTEGRATOR_PAGE_LINKS = {
  page: href("/docs/authenticate"),
  openApi: href("/api/openapi.json"),
  keysPage: KEYS_PAGE_PATH,
} as const;
