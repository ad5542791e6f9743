-- 0107 the archive of finished streams (issue #45, storage), expand: the
-- events of a stream that is done with, but its first and its last, move
-- into one row whose events TOAST compresses (events/postgres Archive). A
-- finished four-player game's events took 52 KB as rows and index entries;
-- archived, 14 KB (8 KB of compressed JSON, 6 KB of hashes, which do not
-- compress), plus its first and last events, which stay in events: the
-- first for the reads that join on it (LastActs) and for an append that
-- expects no event to collide with, the last as the stream's head, which
-- appends chain from. The unique (stream, version) of events does not see
-- the archive: the store's head look-up refuses an event whose next
-- version is archived.
--
-- events holds the archived events as arrays, in version order from
-- first_version, each [position, version, type, actor, request_id,
-- idempotency_key, append_key, recorded_at in microseconds since the
-- epoch, data], data as it was written (json keeps its text); hashes their
-- hashes end to end, 32 bytes each. The store's reads take the archived
-- events as if they were rows (ReadStream, ReadAt, ReadAll, Verify).
--
-- The previous release reads events only: it would see an archived stream
-- as its first and last events. The archive starts an hour after a server
-- of this release starts (PBEM_ARCHIVE_AFTER, docs/operating.md), and only
-- with games finished long before; the previous release's servers must be
-- gone by then.
CREATE TABLE archived_streams (
    stream        text PRIMARY KEY,
    first_version bigint NOT NULL CHECK (first_version > 1),
    last_version  bigint NOT NULL CHECK (last_version >= first_version),
    min_position  bigint NOT NULL,
    max_position  bigint NOT NULL,
    archived_at   timestamptz NOT NULL,
    events        json NOT NULL,
    hashes        bytea NOT NULL CHECK (octet_length(hashes) = 32 * (last_version - first_version + 1))
);

-- ReadAll finds the archived streams whose positions a page of the log
-- overlaps.
CREATE INDEX archived_streams_positions ON archived_streams USING gist (int8range(min_position, max_position, '[]'));
