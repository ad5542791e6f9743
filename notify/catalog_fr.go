package notify

func catalogFR() catalog {
	return catalog{deadline: "02/01/2006 à 15:04 UTC", msgs: map[string]string{
		"subject.invitation": "{{.Game}} avec {{.Players}} : vous êtes invité·e",
		"subject.your_turn":  "{{.Game}} avec {{.Players}} : à vous de jouer",
		"subject.reminder":   "Rappel : {{.Game}} avec {{.Players}}, votre tour se termine le {{.Deadline}}",
		"subject.timeout":    "{{.Game}} avec {{.Players}} : le temps est écoulé",
		"subject.round_end":  "{{.Game}} avec {{.Players}} : fin de la manche",
		"subject.game_over":  "{{.Game}} avec {{.Players}} : partie terminée",
		"subject.link":       "{{.Game}} avec {{.Players}} : votre nouveau lien de jeu",
		"subject.digest":     "Vos parties sur pbem : {{len .Games}} en attente de votre coup",

		"hello":              "Bonjour {{.Name}},",
		"invitation.intro":   "Vous êtes invité·e à une partie de {{.Game}} avec {{.Players}}. Votre place vous attend.",
		"your_turn.intro":    "C'est à vous de jouer dans {{.Game}} avec {{.Players}}.",
		"reminder.intro":     "Votre tour dans {{.Game}} avec {{.Players}} vous attend toujours.",
		"timeout.intro":      "Le temps pour jouer dans {{.Game}} avec {{.Players}} est écoulé.",
		"round_end.intro":    "Une manche de {{.Game}} avec {{.Players}} est terminée. Qui a pris quoi :",
		"game_over.intro":    "La partie de {{.Game}} avec {{.Players}} est terminée.",
		"link.intro":         "Voici votre nouveau lien vers {{.Game}} avec {{.Players}}. Les anciens liens vers votre place ne marchent plus.",
		"digest.intro":       "Ces parties attendent votre coup :",
		"digest.game":        "{{.Game}} avec {{.Players}}",
		"digest.deadline":    "à jouer avant le {{.Deadline}}",
		"deadline":           "Merci de jouer avant le {{.Deadline}}.",
		"happened":           "Ce qui s'est passé :",
		"ranking":            "Classement final :",
		"rank":               "{{.Place}}. {{.Name}} : {{.Score}} points",
		"audit":              "Chaque mélange de cette partie peut être vérifié : son historique complet, avec la graine désormais révélée, est ici :",
		"play":               "Ouvrir la partie",
		"play.text":          "Votre lien (gardez-le pour vous : il ouvre votre place) :",
		"footer.why":         "Vous recevez ce message parce que vous jouez sur pbem.",
		"footer.unsubscribe": "Choisissez à quelle fréquence pbem vous écrit (à chaque coup, un résumé quotidien, ou jamais) :",
		"footer.always":      "Les invitations et les nouveaux liens sont toujours envoyés, et vos liens de jeu restent valables.",
	}}
}
