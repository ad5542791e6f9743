package play

import (
	"slices"

	"pbem/events/pbemevent"
	"pbem/projections"
)

// DescribeAudit tells each event of an audit record as a sentence in lang,
// in the order of a.Events: the history's sentences, told from the whole
// event (the audit shows every event whole once the game has ended, so
// the sentence reveals nothing its raw data does not). Each sentence names
// the players as they were when its event was appended (AuditNames): a
// replaced player's moves keep their name. names are the players by seat
// now, for a record without its creation. An event no engine reads gets "".
func (s *Service) DescribeAudit(a *Audit, names []string, lang string) []string {
	out := make([]string, len(a.Events))
	eng, ok := s.games[a.Game]
	at := AuditNames(a, names)
	for i, e := range a.Events {
		r := projections.HistoryRow{Version: e.Version, Type: e.Type, Actor: e.Meta.Actor, Data: e.Data}
		if !ok && !pbemevent.IsServiceEvent(e.Type) {
			continue
		}
		out[i] = describeRow(eng, r, at[i], lang)
	}
	return out
}

// AuditNames gives, for each event of a (in order), the players' names by
// seat as they were once it was appended: the creation names them, each
// replacement renames its seat from then on. names (the players now)
// stand for a record that does not begin with its creation.
func AuditNames(a *Audit, names []string) [][]string {
	out := make([][]string, len(a.Events))
	players := slices.Clone(names)
	for i, e := range a.Events {
		players = projections.PlayersAfter(players, e)
		out[i] = players
	}
	return out
}
