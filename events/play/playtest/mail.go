package playtest

// MailSQL is a relation of every email a database holds for sending, for
// tests to read in one place: the outbox's rows, and the your-turn emails
// still owed by their game's row (games.turn_mail, migration 0101), which
// the mail worker writes to the outbox when it claims them. Its columns:
// game_id, seat, kind, version (the game's version the email is about),
// status ('pending' for an owed one), due (when it may be sent) and ord
// (the outbox's id; owed ones after every row, in their game's order).
// Use it as `FROM ` + MailSQL + ` m`.
const MailSQL = `(SELECT game_id, seat, kind, event_version AS version, status, next_attempt_at AS due, id AS ord FROM outbox
	UNION ALL SELECT g.id, (o.t->>'seat')::int, 'your_turn', (o.t->>'version')::bigint, 'pending',
		to_timestamp((o.t->>'due_us')::bigint / 1000000.0), 1000000000000000000 + o.i
	FROM games g, json_array_elements(g.turn_mail) WITH ORDINALITY AS o(t, i))`
