-- A signed waiver is evidence and stays, but a family erased on request (features/company-data)
-- loses its personal details in it: only inside the erasure transaction, which sets
-- tumble.erasing_family, and only the signer and child columns may change. Deleting stays refused.
CREATE OR REPLACE FUNCTION signed_waivers_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('tumble.erasing_family', true) = 'on'
     AND NEW.id = OLD.id AND NEW.company_id = OLD.company_id AND NEW.waiver_id = OLD.waiver_id
     AND NEW.waiver_version = OLD.waiver_version AND NEW.waiver_title = OLD.waiver_title
     AND NEW.body_html = OLD.body_html AND NEW.signed_at = OLD.signed_at
     AND NEW.content_hash = OLD.content_hash
     AND NEW.child_id IS NOT DISTINCT FROM OLD.child_id
     AND NEW.parent_id IS NOT DISTINCT FROM OLD.parent_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'signed waivers cannot be changed or deleted' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
