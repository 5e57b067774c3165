-- The snapshot windows of awrscope.trend (one per period; two for a compare-period report),
-- as JSON, so a database's trend is built without re-parsing its reports. NULL for rows
-- stored before this migration: filled from the stored bytes when first needed.
ALTER TABLE reports ADD COLUMN trend_windows TEXT;
