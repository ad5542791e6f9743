-- Puts every archived event back into events, then drops the archive.
INSERT INTO events (position, stream, version, type, data, actor, request_id, idempotency_key, append_key, recorded_at, hash)
SELECT (x.e->>0)::bigint, a.stream, (x.e->>1)::bigint, x.e->>2, x.e->8, x.e->>3, x.e->>4, x.e->>5, x.e->>6,
       timestamptz 'epoch' + (x.e->>7)::bigint * interval '1 microsecond',
       substring(a.hashes FROM (x.i::int - 1) * 32 + 1 FOR 32)
FROM archived_streams a CROSS JOIN LATERAL json_array_elements(a.events) WITH ORDINALITY AS x(e, i);
DROP TABLE archived_streams;
