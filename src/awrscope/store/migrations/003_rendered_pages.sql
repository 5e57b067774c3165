-- Rendered HTML of a report's analysis page (zlib-compressed), so the web app serves a page it has
-- shown before without parsing the report again. `renderer` names the awrscope version and templates
-- that drew it: another renderer ignores the row and draws the page anew. Deleted with the report and
-- on reanalysis.
CREATE TABLE rendered_pages (
    report_id BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    page TEXT NOT NULL,
    renderer TEXT NOT NULL,
    html {blob} NOT NULL,
    PRIMARY KEY (report_id, page)
);
