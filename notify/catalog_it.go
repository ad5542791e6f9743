package notify

func catalogIT() catalog {
	return catalog{deadline: "02/01/2006 alle 15:04 UTC", msgs: map[string]string{
		"subject.invitation": "{{.Game}} con {{.Players}}: sei invitato",
		"subject.your_turn":  "{{.Game}} con {{.Players}}: tocca a te",
		"subject.reminder":   "Promemoria: {{.Game}} con {{.Players}}, il tuo turno scade il {{.Deadline}}",
		"subject.timeout":    "{{.Game}} con {{.Players}}: tempo scaduto",
		"subject.round_end":  "{{.Game}} con {{.Players}}: fine del round",
		"subject.game_over":  "{{.Game}} con {{.Players}}: partita finita",
		"subject.link":       "{{.Game}} con {{.Players}}: il tuo nuovo link di gioco",
		"subject.digest":     "Le tue partite su pbem: {{len .Games}} in attesa della tua mossa",

		"hello":              "Ciao {{.Name}},",
		"invitation.intro":   "Sei invitato a una partita di {{.Game}} con {{.Players}}. Il tuo posto ti aspetta.",
		"your_turn.intro":    "Tocca a te in {{.Game}} con {{.Players}}.",
		"reminder.intro":     "Il tuo turno in {{.Game}} con {{.Players}} ti sta ancora aspettando.",
		"timeout.intro":      "Il tempo per giocare in {{.Game}} con {{.Players}} è scaduto.",
		"round_end.intro":    "Un round di {{.Game}} con {{.Players}} è finito. Chi ha preso cosa:",
		"game_over.intro":    "La partita di {{.Game}} con {{.Players}} è finita.",
		"link.intro":         "Ecco il tuo nuovo link per {{.Game}} con {{.Players}}. I vecchi link al tuo posto non funzionano più.",
		"digest.intro":       "Queste partite aspettano la tua mossa:",
		"digest.game":        "{{.Game}} con {{.Players}}",
		"digest.deadline":    "da giocare entro il {{.Deadline}}",
		"deadline":           "Gioca entro il {{.Deadline}}, per favore.",
		"happened":           "Cosa è successo:",
		"ranking":            "Classifica finale:",
		"rank":               "{{.Place}}. {{.Name}}: {{.Score}} punti",
		"audit":              "Ogni mescolata di questa partita può essere verificata: la sua storia completa, con il seme ora rivelato, è qui:",
		"play":               "Apri la partita",
		"play.text":          "Il tuo link (tienilo per te: apre il tuo posto):",
		"footer.why":         "Ricevi questa email perché giochi su pbem.",
		"footer.unsubscribe": "Scegli quanto spesso pbem ti scrive (a ogni mossa, un riepilogo giornaliero, o mai):",
		"footer.always":      "Gli inviti e i nuovi link vengono sempre inviati, e i tuoi link di gioco continuano a funzionare.",
	}}
}
