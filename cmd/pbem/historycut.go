package main

import (
	"context"
	"log/slog"

	"pbem/events"
	"pbem/events/play"
)

// headLogName is the file, in PBEM_DATA, of the last version emailed of
// each game (notify.HeadLog): pbem-backup-files leaves it out, so that a
// restore of the database does not take it back too.
const headLogName = "published-versions"

// historyCutter tells the players of a game whose history a restore cut
// (play.Service.TellHistoryCut).
type historyCutter interface {
	TellHistoryCut(ctx context.Context, id string, lost int64) (bool, error)
}

var _ historyCutter = (*play.Service)(nil)

// tellHistoryCuts hands every game of heads (the head log's last version
// emailed of each game) to svc, which tells the players of those whose
// stream now ends below it: after a point-in-time restore of the
// database, at serve's start. A game the restore removed whole (created
// after the point restored) has no one left to tell; a game that moved
// meanwhile is tried once more.
func tellHistoryCuts(ctx context.Context, log *slog.Logger, svc historyCutter, heads map[string]int64) {
	n := 0
	for id, lost := range heads {
		told, err := svc.TellHistoryCut(ctx, id, lost)
		if events.IsConflict(err) {
			told, err = svc.TellHistoryCut(ctx, id, lost)
		}
		switch {
		case ctx.Err() != nil:
			return
		case events.ErrorCode(err) == events.CodeNotFound:
			log.Warn("history cut: a game emailed up to a version is not in the database (a restore to before its creation?)", "game", id, "version", lost)
		case err != nil:
			log.Error("history cut: the players could not be told", "game", id, "version", lost, "err", err)
		case told:
			n++
			log.Warn("history cut: the database ends this game before the version its last email told; its players are told", "game", id, "version", lost)
		}
	}
	if n > 0 {
		log.Warn("history cut: games taken back by a restore of the database", "games", n)
	}
}
