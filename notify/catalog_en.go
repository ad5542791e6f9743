package notify

func catalogEN() catalog {
	return catalog{deadline: "Mon 2 Jan 2006, 15:04 UTC", msgs: map[string]string{
		"subject.invitation": "{{.Game}} with {{.Players}}: you are invited",
		"subject.your_turn":  "{{.Game}} with {{.Players}}: your turn",
		"subject.reminder":   "Reminder: {{.Game}} with {{.Players}}, your turn ends {{.Deadline}}",
		"subject.timeout":    "{{.Game}} with {{.Players}}: time ran out",
		"subject.round_end":  "{{.Game}} with {{.Players}}: end of the round",
		"subject.game_over":  "{{.Game}} with {{.Players}}: game over",
		"subject.link":       "{{.Game}} with {{.Players}}: your new play link",
		"subject.digest":     "Your games on pbem: {{len .Games}} waiting for you",

		"hello":              "Hello {{.Name}},",
		"invitation.intro":   "You are invited to a game of {{.Game}} with {{.Players}}. Your seat is waiting for you.",
		"your_turn.intro":    "It is your turn in {{.Game}} with {{.Players}}.",
		"reminder.intro":     "Your turn in {{.Game}} with {{.Players}} is still waiting for you.",
		"timeout.intro":      "The time to play in {{.Game}} with {{.Players}} ran out.",
		"round_end.intro":    "A round of {{.Game}} with {{.Players}} is over. Who claimed what:",
		"game_over.intro":    "The game of {{.Game}} with {{.Players}} is over.",
		"link.intro":         "Here is your new link to {{.Game}} with {{.Players}}. Older links to your seat no longer work.",
		"digest.intro":       "These games are waiting for your move:",
		"digest.game":        "{{.Game}} with {{.Players}}",
		"digest.deadline":    "play before {{.Deadline}}",
		"deadline":           "Please play before {{.Deadline}}.",
		"happened":           "What happened:",
		"ranking":            "Final ranking:",
		"rank":               "{{.Place}}. {{.Name}}: {{.Score}} points",
		"audit":              "Every shuffle of this game can be checked: its full record, with the seed now revealed, is here:",
		"play":               "Open the game",
		"play.text":          "Your link (keep it to yourself: it opens your seat):",
		"footer.why":         "You receive this email because you play on pbem.",
		"footer.unsubscribe": "Choose how often pbem writes to you (every move, a daily digest, or never):",
		"footer.always":      "Invitations and new links are always sent, and your play links keep working.",
	}}
}
