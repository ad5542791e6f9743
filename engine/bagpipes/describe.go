package bagpipes

import (
	"fmt"

	"pbem/engine"
)

// phrases holds the one-line summaries, by language then key.
var phrases = map[string]map[string]string{
	"en": {
		"round": "Round %d: the English army card %s is revealed.",
		"taxes": "%s collects taxes.", "militia": "%s raises militia.", "troops": "%s assembles troops.", "mercenaries": "%s hires mercenaries.",
		"stay":      "%s, staying home, replenishes: %s.",
		"act_taxes": "collect taxes", "act_militia": "raise militia", "act_troops": "assemble troops", "act_mercenaries": "hire mercenaries",
		"relocate": "%s moves %d unit(s) to their camp.",
		"play":     "%s plays %s.", "play_on": "%s plays %s on %s.",
		"draws": " (%d card(s) drawn or discarded)",
		"turn":  "%s ends their turn.",
		"badge": "%s gives the badge of honour to %s.", "badge_moved": "%s gives the badge of honour to %s, who sends %d unit(s) to Scotland's camp.",
		"keep":       "%s keeps the badge of honour.",
		"stay_given": "%s gives the Stay Home! token to %s.",
		"stayed":     "%s stays home this round.",
		"choice":     "%s has made their choice.",
		"pass":       "%s plays no more bagpipe cards in this phase.",
		"battle":     "Battle: Scotland %d, England %d: %s wins.",
		"scotland":   "Scotland", "england": "England",
		"awards": "The rewards are handed out.",
		"end":    "Round %d ends; the camps are emptied.",
		"over":   "The game is over.",
		"five":   "The game is over: %s has five daggers more and is the worst traitor.",
	},
	"fr": {
		"round": "Manche %d : la carte armée anglaise %s est révélée.",
		"taxes": "%s perçoit des impôts.", "militia": "%s lève une milice.", "troops": "%s rassemble des troupes.", "mercenaries": "%s engage des mercenaires.",
		"stay":      "%s, qui reste chez lui, se réapprovisionne : %s.",
		"act_taxes": "percevoir des impôts", "act_militia": "lever une milice", "act_troops": "rassembler des troupes", "act_mercenaries": "engager des mercenaires",
		"relocate": "%s délocalise %d unité(s) vers son camp.",
		"play":     "%s joue %s.", "play_on": "%s joue %s sur %s.",
		"draws": " (%d carte(s) piochée(s) ou défaussée(s))",
		"turn":  "%s termine son tour.",
		"badge": "%s passe la médaille d'honneur à %s.", "badge_moved": "%s passe la médaille d'honneur à %s, qui envoie %d unité(s) au camp de l'Écosse.",
		"keep":       "%s garde la médaille d'honneur.",
		"stay_given": "%s donne le jeton « Restez chez vous ! » à %s.",
		"stayed":     "%s reste chez lui cette manche.",
		"choice":     "%s a fait son choix.",
		"pass":       "%s ne joue plus de cartes cornemuse dans cette phase.",
		"battle":     "Combat : Écosse %d, Angleterre %d : victoire de %s.",
		"scotland":   "l'Écosse", "england": "l'Angleterre",
		"awards": "Les récompenses sont distribuées.",
		"end":    "Fin de la manche %d ; les camps sont vidés.",
		"over":   "La partie est terminée.",
		"five":   "La partie est terminée : %s a cinq dagues de plus, c'est le pire traître.",
	},
	"it": {
		"round": "Round %d: viene rivelata la carta esercito inglese %s.",
		"taxes": "%s riscuote le tasse.", "militia": "%s arruola la milizia.", "troops": "%s raduna le truppe.", "mercenaries": "%s assolda mercenari.",
		"stay":      "%s, che resta a casa, si rifornisce: %s.",
		"act_taxes": "riscuotere le tasse", "act_militia": "arruolare la milizia", "act_troops": "radunare le truppe", "act_mercenaries": "assoldare mercenari",
		"relocate": "%s sposta %d unità nel suo accampamento.",
		"play":     "%s gioca %s.", "play_on": "%s gioca %s su %s.",
		"draws": " (%d carta/e pescata/e o scartata/e)",
		"turn":  "%s termina il suo turno.",
		"badge": "%s passa la medaglia d'onore a %s.", "badge_moved": "%s passa la medaglia d'onore a %s, che manda %d unità all'accampamento della Scozia.",
		"keep":       "%s tiene la medaglia d'onore.",
		"stay_given": "%s dà il segnalino «Resta a casa!» a %s.",
		"stayed":     "%s resta a casa in questo round.",
		"choice":     "%s ha fatto la sua scelta.",
		"pass":       "%s non gioca più carte cornamusa in questa fase.",
		"battle":     "Battaglia: Scozia %d, Inghilterra %d: vince %s.",
		"scotland":   "la Scozia", "england": "l'Inghilterra",
		"awards": "Vengono assegnate le ricompense.",
		"end":    "Fine del round %d; gli accampamenti vengono svuotati.",
		"over":   "La partita è finita.",
		"five":   "La partita è finita: %s ha cinque pugnali in più ed è il peggior traditore.",
	},
}

// Describe gives a one-line summary of e in lang (en, fr, it; English
// otherwise). It only uses the public part of the event, so it never
// reveals a choice, a dagger or a drawn card, even given an unredacted event.
func (g Game) Describe(e engine.Event, names []string, lang string) string {
	if d := g.describe(e, names, lang); d != "" {
		return d
	}
	return e.EventType()
}

func (Game) describe(e engine.Event, names []string, lang string) string {
	ph := phrases[normLang(lang)]
	li := langIndex(lang)
	name := func(seat int) string { return playerName(names, seat, li) }
	switch e := e.(type) {
	case RoundStarted:
		return fmt.Sprintf(ph["round"], e.Round, e.Name)
	case Replenished:
		if e.Stay {
			return fmt.Sprintf(ph["stay"], name(e.Seat), ph["act_"+e.Action])
		}
		if ph[e.Action] == "" {
			return ""
		}
		return fmt.Sprintf(ph[e.Action], name(e.Seat))
	case Relocated:
		return fmt.Sprintf(ph["relocate"], name(e.Seat), e.Units)
	case CardPlayed:
		t := fmt.Sprintf(ph["play"], name(e.Seat), e.Name)
		if e.Target >= 0 {
			t = fmt.Sprintf(ph["play_on"], name(e.Seat), e.Name, name(e.Target))
		}
		if len(e.Draws) > 0 {
			t = t[:len(t)-1] + fmt.Sprintf(ph["draws"], len(e.Draws)) + "."
		}
		return t
	case TurnEnded:
		return fmt.Sprintf(ph["turn"], name(e.Seat))
	case BadgePassed:
		if e.Moved > 0 {
			return fmt.Sprintf(ph["badge_moved"], name(e.From), name(e.To), e.Moved)
		}
		return fmt.Sprintf(ph["badge"], name(e.From), name(e.To))
	case BadgeKept:
		return fmt.Sprintf(ph["keep"], name(e.Seat))
	case StayHomeGiven:
		return fmt.Sprintf(ph["stay_given"], name(e.From), name(e.To))
	case StayedHome:
		return fmt.Sprintf(ph["stayed"], name(e.Seat))
	case ChoiceMade:
		return fmt.Sprintf(ph["choice"], name(e.Seat))
	case Passed:
		return fmt.Sprintf(ph["pass"], name(e.Seat))
	case Battle:
		return fmt.Sprintf(ph["battle"], e.Scotland, e.England, ph[e.Winner])
	case Awards:
		return ph["awards"]
	case RoundEnded:
		return fmt.Sprintf(ph["end"], e.Round)
	case GameEnded:
		if e.Reason == "five_daggers" {
			return fmt.Sprintf(ph["five"], name(e.Traitor))
		}
		return ph["over"]
	}
	return e.EventType()
}
