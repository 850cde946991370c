-- Finishing a set replaces its advancement rows (a rerun may change them): without this
-- index every such delete read the whole advancement table, which a big tournament fills
-- with tens of thousands of rows.
CREATE INDEX advancement_by_set ON advancement (set_id);
