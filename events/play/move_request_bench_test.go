package play_test

import (
	"pbem/engine"
	"pbem/events/play"
)

// moveRequest is the request that plays mv from view v.
func moveRequest(v *play.View, mv engine.Move) play.MoveRequest {
	return play.MoveRequest{Version: v.Version, Move: mv}
}
