package bagpipes

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"pbem/engine"
)

// setupError is a refused option or card set, kept in parts so that it can
// be written in the game's language: where (the option, or the card's list,
// index and name, and the field) and what (a message key and its
// arguments). Its rendering is the Message of a bad_options RuleError.
type setupError struct {
	// Option is the option key at fault ("cards", "three_player", ...).
	Option string
	// List, Index and Name place a card: "english_army", 3, "Battle of
	// Falkirk" (Index -1: the list itself). Name falls back to the id.
	List  string
	Index int
	Name  string
	// Field is the card's field at fault, "effects[1].if" ("" for none).
	Field string
	Key   string
	Args  []any
}

// setupMessages holds each message key's text in en, fr and it (the order
// of languages). Field and option names stay as they are written in JSON.
var setupMessages = map[string][3]string{
	"players":      {"swords-and-bagpipes is for 2 to 6 players, not %d", "swords-and-bagpipes se joue de 2 à 6 joueurs, pas %d", "swords-and-bagpipes si gioca da 2 a 6 giocatori, non %d"},
	"options":      {"the options are not a JSON object of known keys: %s", "les options ne sont pas un objet JSON de clés connues : %s", "le opzioni non sono un oggetto JSON di chiavi note: %s"},
	"stay_6":       {"the 6-player game always plays with the Stay Home! token", "la partie à 6 joueurs se joue toujours avec le jeton « Restez chez vous ! »", "la partita a 6 giocatori si gioca sempre con il segnalino Stay Home!"},
	"stay_5":       {"the Stay Home! token is for 5 players (an option) or 6 (always), not %d", "le jeton « Restez chez vous ! » est pour 5 joueurs (en variante) ou 6 (toujours), pas %d", "il segnalino Stay Home! è per 5 giocatori (variante) o 6 (sempre), non %d"},
	"three":        {"the 3-player variant needs 3 players, not %d", "la variante pour 3 joueurs demande 3 joueurs, pas %d", "la variante per 3 giocatori richiede 3 giocatori, non %d"},
	"long_2":       {"the 2-player game has only six English Army cards, not the nine rounds of long_game", "la partie à 2 joueurs n'a que six cartes armée anglaise, pas les neuf manches de long_game", "la partita a 2 giocatori ha solo sei carte Esercito inglese, non i nove round di long_game"},
	"precise_2":    {"the 2-player game deals the dagger cards by value, so precise_daggers does not apply", "la partie à 2 joueurs distribue les cartes dague par valeur : precise_daggers ne s'applique pas", "la partita a 2 giocatori distribuisce le carte pugnale per valore: precise_daggers non si applica"},
	"army_count":   {"%d usable cards for these options (%s), %d needed", "%d cartes utilisables avec ces options (%s), %d nécessaires", "%d carte utilizzabili con queste opzioni (%s), %d necessarie"},
	"king_count":   {"no King Edward card is usable with these options (%s)", "aucune carte du roi Édouard n'est utilisable avec ces options (%s)", "nessuna carta Re Edoardo è utilizzabile con queste opzioni (%s)"},
	"daggers_2":    {"the 2-player game needs at least 4 one-dagger, 6 two-dagger and 4 three-dagger cards", "la partie à 2 joueurs demande au moins 4 cartes à 1 dague, 6 à 2 dagues et 4 à 3 dagues", "la partita a 2 giocatori richiede almeno 4 carte da 1 pugnale, 6 da 2 e 4 da 3"},
	"daggers_p":    {"precise_daggers needs at least 2 one-dagger, 4 two-dagger and 4 three-dagger cards", "precise_daggers demande au moins 2 cartes à 1 dague, 4 à 2 dagues et 4 à 3 dagues", "precise_daggers richiede almeno 2 carte da 1 pugnale, 4 da 2 e 4 da 3"},
	"not_object":   {"must be a JSON object", "doit être un objet JSON", "deve essere un oggetto JSON"},
	"not_list":     {"must be a list of cards", "doit être une liste de cartes", "deve essere una lista di carte"},
	"unknown":      {"unknown field", "champ inconnu", "campo sconosciuto"},
	"type":         {"must be %s", "doit être %s", "deve essere %s"},
	"missing":      {"missing", "manquant", "mancante"},
	"twice":        {"%q is the id of another card too", "%q est aussi l'id d'une autre carte", "%q è anche l'id di un'altra carta"},
	"range":        {"%d is not in %d..%d", "%d n'est pas entre %d et %d", "%d non è tra %d e %d"},
	"chooser_key":  {"key %q is not a number of choosing players, 2 to 4", "la clé %q n'est pas un nombre de joueurs qui choisissent, de 2 à 4", "la chiave %q non è un numero di giocatori che scelgono, da 2 a 4"},
	"daggers":      {"%d is not 1, 2 or 3", "%d n'est pas 1, 2 ou 3", "%d non è 1, 2 o 3"},
	"phase":        {"%q is not actions, before_reveal or awards", "%q n'est pas actions, before_reveal ou awards", "%q non è actions, before_reveal o awards"},
	"no_effect":    {"a bagpipe card needs at least one effect", "une carte cornemuse a besoin d'au moins un effet", "una carta cornamusa richiede almeno un effetto"},
	"one_variable": {"at most one \"up to\" unit effect of your own per card", "au plus un effet « jusqu'à » N unités pour soi par carte", "al massimo un effetto «fino a» N unità per sé per carta"},
	"kind_army":    {"%q is not allowed on an army card", "%q n'est pas permis sur une carte armée", "%q non è permesso su una carta esercito"},
	"switch_phase": {"switch only on a before_reveal card", "switch seulement sur une carte before_reveal", "switch solo su una carta before_reveal"},
	"switch_who":   {"switch applies to the player only", "switch ne s'applique qu'au joueur", "switch si applica solo al giocatore"},
	"unknown_val":  {"unknown value %q", "valeur inconnue %q", "valore sconosciuto %q"},
	"army_who":     {"an army card's effect applies to \"all\" or \"badge\"", "l'effet d'une carte armée s'applique à \"all\" ou \"badge\"", "l'effetto di una carta esercito si applica a \"all\" o \"badge\""},
	"awards_only":  {"%q only on an awards card", "%q seulement sur une carte awards", "%q solo su una carta awards"},
	"secret_side": {"%q only on an awards card: played before the reveal, its effect would show the side the player chose in secret",
		"%q seulement sur une carte awards : jouée avant la révélation, son effet montrerait le camp choisi en secret",
		"%q solo su una carta awards: giocata prima della rivelazione, il suo effetto mostrerebbe la parte scelta in segreto"},
	"table_who": {"%s affects the whole table, not a player", "%s touche toute la table, pas un joueur", "%s riguarda tutto il tavolo, non un giocatore"},
	"army_if":   {"no condition on an army card", "pas de condition sur une carte armée", "nessuna condizione su una carta esercito"},
	"need_king": {"at least one King Edward card is needed", "il faut au moins une carte du roi Édouard", "serve almeno una carta Re Edoardo"},
	"need_dag":  {"at least one dagger card is needed", "il faut au moins une carte dague", "serve almeno una carta pugnale"},
}

// typeWords names a JSON type in each language, for the "type" message.
var typeWords = map[reflect.Kind][3]string{
	reflect.Int:    {"a whole number", "un nombre entier", "un numero intero"},
	reflect.String: {"a string", "une chaîne", "una stringa"},
	reflect.Bool:   {"true or false", "true ou false", "true o false"},
	reflect.Slice:  {"a list", "une liste", "una lista"},
	reflect.Map:    {"an object of whole numbers", "un objet de nombres entiers", "un oggetto di numeri interi"},
	reflect.Struct: {"an object", "un objet", "un oggetto"},
}

// message writes the error in language li.
func (e *setupError) message(li int) string {
	text := setupMessages[e.Key][li]
	args := e.Args
	if e.Key == "type" && len(args) == 1 {
		if k, ok := args[0].(reflect.Kind); ok {
			args = []any{typeWords[k][li]}
		}
	}
	what := fmt.Sprintf(text, args...)
	var where []string
	if e.List != "" {
		w := e.List
		if e.Index >= 0 {
			w = fmt.Sprintf("%s[%d]", e.List, e.Index)
			if e.Name != "" {
				w += " " + [3]string{"%q", "« %s »", "«%s»"}[li]
				w = fmt.Sprintf(w, e.Name)
			}
		}
		where = append(where, w)
	}
	if e.Field != "" {
		where = append(where, [3]string{"field ", "champ ", "campo "}[li]+e.Field)
	}
	sep := [3]string{": ", " : ", ": "}[li]
	opt := e.Option
	if opt == "" {
		opt = "cards"
	}
	if len(where) == 0 {
		return opt + sep + what
	}
	return opt + sep + strings.Join(where, ", ") + sep + what
}

// ruleError is the bad_options RuleError of e in language li.
func (e *setupError) ruleError(li int) *engine.RuleError {
	field := e.Option
	if field == "" {
		field = "cards"
	}
	return &engine.RuleError{Code: engine.CodeBadOptions, Message: e.message(li), Field: field}
}

func (e *setupError) Error() string { return e.message(0) }

// optionError is a refused option.
func optionError(option, key string, args ...any) *setupError {
	return &setupError{Option: option, Index: -1, Key: key, Args: args}
}

// cardError is a refused card: list and index place it, c names it.
func cardError(list string, index int, name, field, key string, args ...any) *setupError {
	return &setupError{Option: "cards", List: list, Index: index, Name: name, Field: field, Key: key, Args: args}
}

// decodeCardSet reads a card set strictly, card by card, so that a value
// of the wrong type or an unknown field is reported with the card's list,
// index and name and the field, like the checks of validate.
func decodeCardSet(data []byte) (*CardSet, *setupError) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, &setupError{Option: "cards", Index: -1, Key: "not_object"}
	}
	var cs CardSet
	lists := map[string]reflect.Value{
		"king_edward":  reflect.ValueOf(&cs.KingEdward).Elem(),
		"english_army": reflect.ValueOf(&cs.EnglishArmy).Elem(),
		"daggers":      reflect.ValueOf(&cs.Daggers).Elem(),
		"bagpipes":     reflect.ValueOf(&cs.Bagpipes).Elem(),
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		dst, ok := lists[k]
		if !ok {
			return nil, &setupError{Option: "cards", Index: -1, Field: k, Key: "unknown"}
		}
		var items []json.RawMessage
		if err := json.Unmarshal(top[k], &items); err != nil {
			return nil, &setupError{Option: "cards", List: k, Index: -1, Key: "not_list"}
		}
		out := reflect.MakeSlice(dst.Type(), len(items), len(items))
		for i, raw := range items {
			if field, key, arg := decodeStrict(raw, out.Index(i), ""); key != "" {
				e := cardError(k, i, peekName(raw), field, key)
				if key == "type" {
					e.Args = []any{arg}
				}
				return nil, e
			}
		}
		dst.Set(out)
	}
	return &cs, nil
}

// peekName is a raw card's name, else its id, else "".
func peekName(raw json.RawMessage) string {
	var c struct {
		ID   any `json:"id"`
		Name any `json:"name"`
	}
	_ = json.Unmarshal(raw, &c)
	if s, ok := c.Name.(string); ok && s != "" {
		return s
	}
	if s, ok := c.ID.(string); ok {
		return s
	}
	return ""
}

// decodeStrict decodes the JSON object raw into the struct v field by
// field (json tags, matched exactly). On failure it returns the field's
// path under path, the message key ("unknown", "type") and, for "type",
// the kind of value expected.
func decodeStrict(raw json.RawMessage, v reflect.Value, path string) (field, key string, want reflect.Kind) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return path, "type", reflect.Struct
	}
	t := v.Type()
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fp := k
		if path != "" {
			fp = path + "." + k
		}
		i := fieldByTag(t, k)
		if i < 0 {
			return fp, "unknown", 0
		}
		f := v.Field(i)
		if f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct {
			var items []json.RawMessage
			if err := json.Unmarshal(obj[k], &items); err != nil {
				return fp, "type", reflect.Slice
			}
			out := reflect.MakeSlice(f.Type(), len(items), len(items))
			for j, item := range items {
				if field, key, want := decodeStrict(item, out.Index(j), fmt.Sprintf("%s[%d]", fp, j)); key != "" {
					return field, key, want
				}
			}
			f.Set(out)
			continue
		}
		if err := json.Unmarshal(obj[k], f.Addr().Interface()); err != nil {
			return fp, "type", f.Kind()
		}
	}
	return "", "", 0
}

// fieldByTag is the index of t's exported field whose json name is name,
// -1 if none.
func fieldByTag(t reflect.Type, name string) int {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return i
		}
	}
	return -1
}
