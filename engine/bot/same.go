package bot

import (
	"bytes"
	"encoding/json"

	"pbem/engine"
)

// sameMove reports whether two listed moves are the same, label included:
// equal JSON forms.
func sameMove(a, b engine.Move) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
