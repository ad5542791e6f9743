package projections

import "pbem/events/pbemevent"

// How pbem names bots, in every language (a user trial found three
// namings: "a bot (normal)" in the history, the bare seat name in the
// emails, "Robot normal" in the ratings). Within a game a bot is its
// seat: the seat's name with the bot mark, as the players' table of the
// play page shows it ("Bot 3 (bot)", "Ann (bot)" for a seat handed to a
// bot), in the history, the audit, the emails and the lists of players
// alike. Across games (the leaderboards, a finished game's ratings) a bot
// is its level, in the same words ("Bot (normal)").

// BotSeatName is the name of a seat a bot plays, name being the seat's
// name, in lang: "Bot 3 (bot)", French "Bot 3 (robot)".
func BotSeatName(lang, name string) string { return texts.T(lang, "botname.seat", name) }

// SeatName is a seat's name as a game shows it in lang: name, marked as
// a bot's (BotSeatName) when level, the level of the bot that plays it,
// is not "".
func SeatName(lang, name, level string) string {
	if level == "" {
		return name
	}
	return BotSeatName(lang, name)
}

// BotLevelName names the bots of level across games, in lang: "Bot
// (normal)", French "Robot (normal)", Italian "Bot (normale)".
func BotLevelName(lang, level string) string {
	return texts.T(lang, "botname.level", word(texts.In(lang), "bot.", level))
}

// ActorName is the name of whoever acted as actor, with the event's
// idempotency key, among players (the names by seat when it acted), in
// lang: the seat's player for "seat:N", the seat's name with the bot mark
// for a bot's move on its seat (BotSeatName); "" for another actor (the
// organiser, the system, a step played for a seat, a bot that played for
// a seat whose time ran out: its key names no seat) or an unknown seat.
func ActorName(lang, actor, key string, players []string) string {
	if s, ok := pbemevent.SeatOfActor(actor); ok {
		if s < len(players) {
			return players[s]
		}
		return ""
	}
	if _, ok := pbemevent.LevelOfBot(actor); !ok {
		return ""
	}
	if s := pbemevent.ActingSeat(actor, key); s >= 0 && s < len(players) {
		return BotSeatName(lang, players[s])
	}
	return ""
}
