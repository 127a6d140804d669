-- The public read cache also holds the registration form and the class finder's timetable
-- (decision 021): the same notify triggers as 0056 on the tables those reads use.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['registration_forms', 'terms', 'term_closures', 'class_types',
    'term_classes', 'class_sessions']
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION tumble_cache_notify()', t || '_cache_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION tumble_cache_notify()', t || '_cache_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION tumble_cache_notify()', t || '_cache_delete', t);
  END LOOP;
END;
$$;
