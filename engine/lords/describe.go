package lords

import (
	"fmt"
	"strings"

	"pbem/engine"
)

// phrases holds one language's sentences; %[1]s is always the acting
// player's name.
type phrases struct {
	turnFlip, turnNoFlip                   string
	recruitUp, recruitDown, recruitDownSaw string
	musterUp, musterDown, musterDownSaw    string
	extra                                  string
	passed, declined                       string
	used, drew                             string
	copied                                 string
	swapped, swappedHidden                 string
	discarded                              string
	cockburn                               string
	scored, scoredNone                     string
	claimed                                string
	ended, kept                            string
	started                                string
	gameEnded                              string
	faceDown                               string
	power                                  [10]string
}

func lang(code string) *phrases {
	switch strings.ToLower(code) {
	case "fr":
		return &phrases{
			turnFlip:       "Manche %[2]d, tour %[3]d : %[1]s retourne la recrue %[4]s",
			turnNoFlip:     "Manche %[2]d, tour %[3]d : %[1]s commence le tour",
			recruitUp:      "%[1]s a recruté %[2]s, face visible",
			recruitDown:    "%[1]s a recruté une carte face cachée",
			recruitDownSaw: "%[1]s a recruté une carte face cachée (%[2]s)",
			musterUp:       "%[1]s a levé %[2]s face visible",
			musterDown:     "%[1]s a levé une carte face cachée",
			musterDownSaw:  "%[1]s a levé %[2]s face cachée",
			extra:          " (pouvoir Makgill)",
			passed:         "%[1]s ne peut ni recruter ni lever et passe",
			declined:       "%[1]s n'utilise pas le pouvoir de %[2]s",
			used:           "%[1]s utilise le pouvoir de %[2]s : %[3]s",
			drew:           " (%[1]s)",
			copied:         "%[1]s copie avec %[2]s le pouvoir de %[3]s : %[4]s",
			swapped:        "%[1]s échange %[2]s contre %[4]s de %[3]s",
			swappedHidden:  "%[1]s échange %[2]s contre une carte face cachée de %[3]s",
			discarded:      "%[1]s défausse %[3]s de %[2]s avec %[4]s",
			cockburn:       "%[1]s place %[2]s parmi les partisans et prend %[3]s dans son armée",
			scored:         "Fin de la manche %[2]d : %[1]s l'emporte (%[3]s)",
			scoredNone:     "Fin de la manche %[1]d : aucune armée",
			claimed:        "%[1]s prend le partisan %[2]s",
			ended:          "La manche %[2]d est terminée ; %[1]s prend l'initiative",
			kept:           " ; restent en jeu : %[1]s",
			started:        "La manche %[1]d commence ; partisans : %[2]s",
			gameEnded:      "%[1]s gagne la partie avec %[2]d points de partisans",
			faceDown:       "une carte face cachée",
			power: [10]string{"", "copier le pouvoir d'un autre suivant", "lever un autre suivant",
				"reste dans l'armée pour la manche suivante", "défausser un autre suivant",
				"échanger avec un suivant adverse", "piocher une carte", "échanger avec un partisan",
				"prendre deux partisans en fin de manche", "compte comme n'importe quel clan"},
		}
	case "it":
		return &phrases{
			turnFlip:       "Round %[2]d, turno %[3]d: %[1]s scopre la recluta %[4]s",
			turnNoFlip:     "Round %[2]d, turno %[3]d: %[1]s inizia il turno",
			recruitUp:      "%[1]s ha reclutato %[2]s, scoperta",
			recruitDown:    "%[1]s ha reclutato una carta coperta",
			recruitDownSaw: "%[1]s ha reclutato una carta coperta (%[2]s)",
			musterUp:       "%[1]s ha schierato %[2]s scoperta",
			musterDown:     "%[1]s ha schierato una carta coperta",
			musterDownSaw:  "%[1]s ha schierato %[2]s coperta",
			extra:          " (potere Makgill)",
			passed:         "%[1]s non può né reclutare né schierare e passa",
			declined:       "%[1]s non usa il potere di %[2]s",
			used:           "%[1]s usa il potere di %[2]s: %[3]s",
			drew:           " (%[1]s)",
			copied:         "%[1]s con %[2]s copia il potere di %[3]s: %[4]s",
			swapped:        "%[1]s scambia %[2]s con %[4]s di %[3]s",
			swappedHidden:  "%[1]s scambia %[2]s con una carta coperta di %[3]s",
			discarded:      "%[1]s scarta %[3]s di %[2]s con %[4]s",
			cockburn:       "%[1]s mette %[2]s tra i sostenitori e prende %[3]s nel suo esercito",
			scored:         "Fine del round %[2]d: vince %[1]s (%[3]s)",
			scoredNone:     "Fine del round %[1]d: nessun esercito",
			claimed:        "%[1]s prende il sostenitore %[2]s",
			ended:          "Il round %[2]d è finito; %[1]s prende l'iniziativa",
			kept:           "; restano in gioco: %[1]s",
			started:        "Inizia il round %[1]d; sostenitori: %[2]s",
			gameEnded:      "%[1]s vince la partita con %[2]d punti di sostenitori",
			faceDown:       "una carta coperta",
			power: [10]string{"", "copiare il potere di un altro seguace", "schierare un altro seguace",
				"resta nell'esercito per il round successivo", "scartare un altro seguace",
				"scambiare con un seguace avversario", "pescare una carta", "scambiare con un sostenitore",
				"prendere due sostenitori a fine round", "conta come qualsiasi clan"},
		}
	}
	return &phrases{
		turnFlip:       "Round %[2]d, turn %[3]d: %[1]s turns the recruit %[4]s face-up",
		turnNoFlip:     "Round %[2]d, turn %[3]d: %[1]s starts the turn",
		recruitUp:      "%[1]s recruited the face-up %[2]s",
		recruitDown:    "%[1]s recruited a face-down card",
		recruitDownSaw: "%[1]s recruited a face-down card (%[2]s)",
		musterUp:       "%[1]s mustered %[2]s face-up",
		musterDown:     "%[1]s mustered a card face-down",
		musterDownSaw:  "%[1]s mustered %[2]s face-down",
		extra:          " (Makgill's power)",
		passed:         "%[1]s could neither recruit nor muster and passed",
		declined:       "%[1]s did not use the power of %[2]s",
		used:           "%[1]s used the power of %[2]s: %[3]s",
		drew:           " (%[1]s)",
		copied:         "%[1]s's %[2]s copied the power of %[3]s: %[4]s",
		swapped:        "%[1]s swapped %[2]s for %[3]s's %[4]s",
		swappedHidden:  "%[1]s swapped %[2]s for a face-down follower of %[3]s",
		discarded:      "%[1]s discarded %[2]s's %[3]s with %[4]s",
		cockburn:       "%[1]s put %[2]s among the supporters and took the supporter %[3]s into the army",
		scored:         "Round %[2]d is over: %[1]s wins it (%[3]s)",
		scoredNone:     "Round %[1]d is over: nobody has an army",
		claimed:        "%[1]s claimed the supporter %[2]s",
		ended:          "Round %[2]d has ended; %[1]s takes the initiative",
		kept:           "; staying in play: %[1]s",
		started:        "Round %[1]d begins; supporters: %[2]s",
		gameEnded:      "%[1]s wins the game with %[2]d supporter strength",
		faceDown:       "a face-down card",
		power: [10]string{"", "copy another follower's power", "muster another follower",
			"stays for the next round", "discard another follower", "swap with an opponent's follower",
			"draw a card", "swap with a supporter", "claim two supporters at the end of the round",
			"counts as any clan"},
	}
}

// Describe gives a one-line summary of a (possibly redacted) event in en, fr
// or it (others fall back to English). It shows only the cards the event
// holds, so a redacted event reveals nothing hidden.
func (g *Game) Describe(e engine.Event, names []string, code string) string {
	p := lang(code)
	who := func(seat int) string {
		if seat >= 0 && seat < len(names) && names[seat] != "" {
			return names[seat]
		}
		return fmt.Sprintf("Seat %d", seat)
	}
	name := g.d.name
	switch e := e.(type) {
	case TurnStarted:
		if e.Card != 0 {
			return fmt.Sprintf(p.turnFlip, who(e.Seat), e.Round, e.Turn, name(e.Card))
		}
		return fmt.Sprintf(p.turnNoFlip, who(e.Seat), e.Round, e.Turn)
	case Recruited:
		switch {
		case e.FaceUp:
			return fmt.Sprintf(p.recruitUp, who(e.Seat), name(e.Card))
		case e.Card != 0:
			return fmt.Sprintf(p.recruitDownSaw, who(e.Seat), name(e.Card))
		}
		return fmt.Sprintf(p.recruitDown, who(e.Seat))
	case Mustered:
		var s string
		switch {
		case e.FaceUp:
			s = fmt.Sprintf(p.musterUp, who(e.Seat), name(e.Card))
		case e.Card != 0:
			s = fmt.Sprintf(p.musterDownSaw, who(e.Seat), name(e.Card))
		default:
			s = fmt.Sprintf(p.musterDown, who(e.Seat))
		}
		if e.Extra {
			s += p.extra
		}
		return s
	case Passed:
		return fmt.Sprintf(p.passed, who(e.Seat))
	case PowerDeclined:
		return fmt.Sprintf(p.declined, who(e.Seat), name(e.Card))
	case PowerUsed:
		s := fmt.Sprintf(p.used, who(e.Seat), name(e.Card), p.power[e.Power%10])
		if e.Drawn != 0 {
			s += fmt.Sprintf(p.drew, name(e.Drawn))
		}
		return s
	case Copied:
		return fmt.Sprintf(p.copied, who(e.Seat), name(e.Card), name(e.Copied), p.power[e.Power%10])
	case Swapped:
		if e.Taken == 0 {
			return fmt.Sprintf(p.swappedHidden, who(e.Seat), name(e.Card), who(e.Target))
		}
		taken := name(e.Taken)
		if !e.FaceUp {
			taken += " (" + p.faceDown + ")"
		}
		return fmt.Sprintf(p.swapped, who(e.Seat), name(e.Card), who(e.Target), taken)
	case Discarded:
		return fmt.Sprintf(p.discarded, who(e.Seat), who(e.Target), name(e.Discarded), name(e.Card))
	case SupporterSwapped:
		return fmt.Sprintf(p.cockburn, who(e.Seat), name(e.Card), name(e.Supporter))
	case RoundScored:
		if len(e.Armies) == 0 || len(e.Armies[0].Cards) == 0 {
			return fmt.Sprintf(p.scoredNone, e.Round)
		}
		var parts []string
		for _, a := range e.Armies {
			if len(a.Cards) > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", who(a.Seat), a.Total))
			}
		}
		return fmt.Sprintf(p.scored, who(e.Armies[0].Seat), e.Round, strings.Join(parts, ", "))
	case Claimed:
		return fmt.Sprintf(p.claimed, who(e.Seat), name(e.Card))
	case RoundEnded:
		s := fmt.Sprintf(p.ended, who(e.Initiative), e.Round)
		if len(e.Kept) > 0 {
			var kept []string
			for _, c := range e.Kept {
				kept = append(kept, name(c))
			}
			s += fmt.Sprintf(p.kept, strings.Join(kept, ", "))
		}
		return s
	case RoundStarted:
		var parts []string
		for _, c := range e.Supporters {
			parts = append(parts, name(c))
		}
		return fmt.Sprintf(p.started, e.Round, strings.Join(parts, ", "))
	case GameEnded:
		if len(e.Ranking) == 0 {
			return ""
		}
		return fmt.Sprintf(p.gameEnded, who(e.Ranking[0].Seat), e.Ranking[0].Points)
	}
	return fmt.Sprintf("%v", e)
}
