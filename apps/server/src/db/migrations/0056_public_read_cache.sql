-- The public read cache (platform/public-cache.ts, decision 021). Every committed write to a table
-- the cache holds tells each server process which company changed: pg_notify('tumble_cache',
-- company_id), once per company a statement touched (statement-level triggers with transition
-- tables; PostgreSQL sends a notification only on commit, once per distinct payload per
-- transaction). Writes from the engine, services, jobs, another process and psql alike.
CREATE OR REPLACE FUNCTION tumble_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR changed IN SELECT DISTINCT company_id FROM new_rows WHERE company_id IS NOT NULL LOOP
      PERFORM pg_notify('tumble_cache', changed::text);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR changed IN SELECT DISTINCT company_id FROM old_rows WHERE company_id IS NOT NULL LOOP
      PERFORM pg_notify('tumble_cache', changed::text);
    END LOOP;
  ELSE
    FOR changed IN
      SELECT company_id FROM new_rows WHERE company_id IS NOT NULL
      UNION SELECT company_id FROM old_rows WHERE company_id IS NOT NULL
    LOOP
      PERFORM pg_notify('tumble_cache', changed::text);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The companies table names its company by its id.
CREATE OR REPLACE FUNCTION tumble_cache_notify_company() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR changed IN SELECT id FROM new_rows LOOP PERFORM pg_notify('tumble_cache', changed::text); END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR changed IN SELECT id FROM old_rows LOOP PERFORM pg_notify('tumble_cache', changed::text); END LOOP;
  ELSE
    FOR changed IN SELECT id FROM new_rows UNION SELECT id FROM old_rows LOOP
      PERFORM pg_notify('tumble_cache', changed::text);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A plan's modules apply to every company on it: everything is dropped.
CREATE OR REPLACE FUNCTION tumble_cache_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tumble_cache', '*');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  fn text;
BEGIN
  FOREACH t IN ARRAY ARRAY['companies', 'plans', 'subscriptions', 'payment_methods', 'events',
    'event_sessions', 'event_tickets', 'event_price_tiers', 'event_contacts', 'event_downloads',
    'venues', 'restricted_dates', 'insurances', 'surcharges', 'payment_terms', 'party_slots',
    'birthday_pricing']
  LOOP
    fn := CASE t WHEN 'companies' THEN 'tumble_cache_notify_company'
                 WHEN 'plans' THEN 'tumble_cache_notify_all'
                 ELSE 'tumble_cache_notify' END;
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_cache_insert', t, fn);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_cache_update', t, fn);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_cache_delete', t, fn);
  END LOOP;
END;
$$;
