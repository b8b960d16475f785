import { PageHeading } from "../ui/PageHeading";
import { AuditLog } from "./AuditLog";

/** A tenant's own audit log: every change to its configuration, by its keys or the owner. */
export function AuditPage() {
  return (
    <>
      <PageHeading title="Audit log" />
      <AuditLog />
    </>
  );
}
