-- The billing state becomes an enum (issue 27): the database, the Prisma client and the code share
-- one list of states. The CHECK it replaces is dropped first (it compares with text and would not
-- survive the type change), and so is the text default, which cannot be cast automatically.
CREATE TYPE "BillingState" AS ENUM ('active', 'past_due', 'past_due_blocked', 'canceled');

ALTER TABLE "organizations" DROP CONSTRAINT "organizations_billing_state_check";
ALTER TABLE "organizations" ALTER COLUMN "billing_state" DROP DEFAULT;
ALTER TABLE "organizations" ALTER COLUMN "billing_state" TYPE "BillingState" USING "billing_state"::"BillingState";
ALTER TABLE "organizations" ALTER COLUMN "billing_state" SET DEFAULT 'active';
