package bagpipes

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"pbem/engine"
)

func TestDump(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	if n == 0 {
		t.Skip()
	}
	opts := []byte(os.Getenv("OPTS"))
	cards, _ := os.ReadFile("testdata/cards-test.json")
	opts = bytes.Replace(opts, []byte(`"@test"`), cards, 1)
	st, err := Game{}.New(engine.Setup{Players: n, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(st)
	var m map[string]any
	json.Unmarshal(b, &m)
	delete(m, "custom_cards")
	b, _ = json.Marshal(m)
	t.Log(string(b))
}
