-- A group of orders may be written by one statement outside a transaction, from the
-- merchant's account as read without its row lock (orders/group.rs, issue 13): that saves
-- the BEGIN and COMMIT round trips and the lock's wait. Such a statement updates the account
-- only where it still holds the figures read, and ends with this check of how many guarded
-- rows it changed: raising fails the statement, which undoes every part of it, and the group
-- is then placed again under the lock. serialization_failure (40001) is what PostgreSQL
-- itself says when a transaction cannot go on because rows it relied on changed.
CREATE FUNCTION guarded_rows_unchanged(matched BIGINT, expected BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
BEGIN
    IF matched <> expected THEN
        RAISE serialization_failure USING MESSAGE = format('%s of %s guarded rows changed since they were read',
            expected - matched, expected);
    END IF;
    RETURN matched;
END;
$$;
