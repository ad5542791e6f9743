package projections

import (
	"context"
	"strings"
	"time"
)

// InboxItem is a game waiting for a player's decision.
type InboxItem struct {
	GameID   string     `json:"game_id"`
	Game     string     `json:"game"`
	Seat     int        `json:"seat"`
	Name     string     `json:"name"`
	Since    int64      `json:"since_version"`
	Deadline *time.Time `json:"deadline"`
}

// Inbox lists the active games awaiting a decision of any seat played from
// email, soonest deadline first. Errors: EInvalid for an empty address.
func (s *Service) Inbox(ctx context.Context, email string) ([]InboxItem, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return nil, Errorf(EInvalid, "give an email address")
	}
	items, err := s.repo.Inbox(ctx, email)
	if err != nil {
		return nil, err
	}
	return nonNil(items), nil
}
