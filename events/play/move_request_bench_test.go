package play_test

import (
	"encoding/json"

	"pbem/engine"
	"pbem/events/play"
)

// moveRequest is the request that plays mv from view v.
func moveRequest(v *play.View, mv engine.Move) play.MoveRequest {
	b, _ := json.Marshal(mv)
	return play.MoveRequest{Version: v.Version, Move: b}
}
