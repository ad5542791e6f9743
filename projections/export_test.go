package projections

import (
	"pbem/engine"
	"pbem/events"
)

// EventHistory tells event e of game g (ev: its engine event, nil for a
// service event) as each seat may see it: the public (Spectator) row
// first, then a row for each seat that sees it differently. players are
// the names after e (a pbem.player_replaced has renamed its seat). It is
// the history table's rows as the projector wrote them before migration
// 0080: the reference SeatHistory is tested against.
func EventHistory(eng engine.Game, g *Game, lang string, players []string, e events.Event, ev engine.Event) ([]HistoryRow, error) {
	pub, err := public(eng, lang, players, e, ev)
	if err != nil {
		return nil, err
	}
	rows := []HistoryRow{rowOf(g, players, e, engine.Spectator, lang, pub)}
	if ev == nil {
		return rows, nil
	}
	for seat := range players {
		r, err := redacted(eng, ev, seat, players, lang)
		if err != nil {
			return nil, err
		}
		if r.differs(pub) {
			rows = append(rows, rowOf(g, players, e, seat, lang, r))
		}
	}
	return rows, nil
}
