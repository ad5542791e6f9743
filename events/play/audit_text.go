package play

import (
	"pbem/events/pbemevent"
	"pbem/projections"
)

// DescribeAudit tells each event of an audit record as a sentence in lang,
// in the order of a.Events: the history's sentences, told from the whole
// event (the audit shows every event whole once the game has ended, so
// the sentence reveals nothing its raw data does not). names are the
// players by seat. An event no engine reads gets "".
func (s *Service) DescribeAudit(a *Audit, names []string, lang string) []string {
	out := make([]string, len(a.Events))
	eng, ok := s.games[a.Game]
	for i, e := range a.Events {
		r := projections.HistoryRow{Version: e.Version, Type: e.Type, Actor: e.Meta.Actor, Data: e.Data}
		if !ok && !pbemevent.IsServiceEvent(e.Type) {
			continue
		}
		out[i] = describeRow(eng, r, names, lang)
	}
	return out
}
