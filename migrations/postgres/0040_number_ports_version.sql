-- The version of number_ports that servers follow (platform/ports.rs). Until now they
-- compared (count, newest recorded_at), which an administrator's removal of an older row
-- plus a supplier's new report can leave unchanged: the removed port would stay applied
-- on the other servers. A counter raised by every insert, update and delete, in the
-- change's own transaction, moves with each change whoever writes it. One trigger per
-- event, named as SQLite's (tests/api/schema.rs compares the names).
CREATE TABLE number_ports_version (
    id       BIGINT  PRIMARY KEY,
    version  BIGINT  NOT NULL
);
INSERT INTO number_ports_version (id, version) VALUES (1, 0);

CREATE FUNCTION number_ports_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE number_ports_version SET version = version + 1 WHERE id = 1; RETURN NULL; END;
$$;
CREATE TRIGGER number_ports_inserted AFTER INSERT ON number_ports
FOR EACH ROW EXECUTE FUNCTION number_ports_changed();
CREATE TRIGGER number_ports_updated AFTER UPDATE ON number_ports
FOR EACH ROW EXECUTE FUNCTION number_ports_changed();
CREATE TRIGGER number_ports_deleted AFTER DELETE ON number_ports
FOR EACH ROW EXECUTE FUNCTION number_ports_changed();
