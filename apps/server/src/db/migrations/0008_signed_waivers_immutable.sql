-- A signed waiver is evidence: once written it never changes and is never removed.
CREATE FUNCTION signed_waivers_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'signed waivers cannot be changed or deleted' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signed_waivers_immutable
  BEFORE UPDATE OR DELETE ON signed_waivers
  FOR EACH ROW EXECUTE FUNCTION signed_waivers_refuse_change();
--> statement-breakpoint
CREATE TRIGGER signed_waivers_no_truncate
  BEFORE TRUNCATE ON signed_waivers
  FOR EACH STATEMENT EXECUTE FUNCTION signed_waivers_refuse_change();
