package play

import (
	"context"
	"strings"

	"pbem/projections"
)

// Inbox lists the active games awaiting a decision of any seat played from
// email, soonest deadline first. Errors: EInvalid for an empty address.
func (s *Service) Inbox(ctx context.Context, email string) ([]projections.InboxItem, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return nil, Errorf(EInvalid, "give an email address")
	}
	items, err := s.repo.Inbox(ctx, email)
	if err != nil {
		return nil, err
	}
	return projections.NonNil(items), nil
}
