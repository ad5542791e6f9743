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

// typeKeys names a JSON type's catalog key, for the "type" message.
var typeKeys = map[reflect.Kind]string{
	reflect.Int: "type.int", reflect.String: "type.string", reflect.Bool: "type.bool",
	reflect.Slice: "type.slice", reflect.Map: "type.map", reflect.Struct: "type.struct",
}

// message writes the error in lang: "option: where: what", the message
// key's text from the catalog ("setup." + Key; field and option names
// stay as they are written in JSON).
func (e *setupError) message(lang string) string {
	p := texts.In(lang)
	args := e.Args
	if e.Key == "type" && len(args) == 1 {
		if k, ok := args[0].(reflect.Kind); ok {
			args = []any{p.T(typeKeys[k])}
		}
	}
	what := p.T("setup."+e.Key, args...)
	var where []string
	if e.List != "" {
		w := e.List
		if e.Index >= 0 {
			w = fmt.Sprintf("%s[%d]", e.List, e.Index)
			if e.Name != "" {
				w = p.T("setup.named", w, e.Name)
			}
		}
		where = append(where, w)
	}
	if e.Field != "" {
		where = append(where, p.T("setup.field", e.Field))
	}
	opt := e.Option
	if opt == "" {
		opt = "cards"
	}
	if len(where) > 0 {
		what = p.T("setup.at", strings.Join(where, ", "), what)
	}
	return p.T("setup.at", opt, what)
}

// ruleError is the bad_options RuleError of e in lang.
func (e *setupError) ruleError(lang string) *engine.RuleError {
	field := e.Option
	if field == "" {
		field = "cards"
	}
	return &engine.RuleError{Code: engine.CodeBadOptions, Message: e.message(lang), Field: field}
}

func (e *setupError) Error() string { return e.message("en") }

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
