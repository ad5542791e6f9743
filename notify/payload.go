package notify

import (
	"encoding/json"
	"fmt"

	"pbem/projections/outbox"
)

// DecodePayload parses and checks an outbox payload.
func DecodePayload(data []byte) (outbox.Payload, error) {
	var p outbox.Payload
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("notify: payload: %w", err)
	}
	if p.To.Email == "" {
		return p, fmt.Errorf("notify: payload: no recipient address")
	}
	if problem := outbox.AddressProblem(p.To.Email); problem != "" {
		return p, (fmt.Errorf("notify: payload: recipient address %q refused: %s", p.To.Email, problem))
	}
	return p, nil
}
