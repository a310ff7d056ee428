// `npm run citus:script`: writes prisma/citus/distribute.sql from prisma/citus/distribution.ts.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { distributionScript } from "./distribution";

writeFileSync(join(import.meta.dirname, "distribute.sql"), distributionScript());
