package postgres

import (
	"github.com/jackc/pgx/v5"

	"pbem/events"
)

// TxOf returns the pgx transaction inside an events.Tx given to a hook by
// this store, or nil when tx does not come from it, for the tests that
// write in a hook's transaction directly.
func TxOf(tx events.Tx) pgx.Tx {
	if h, ok := tx.(*hookTx); ok {
		return h.tx
	}
	return nil
}
