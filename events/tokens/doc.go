// Package tokens derives every token pbem makes from the server secret
// (PBEM_SECRET), and nothing else does. Each token is HMAC-SHA256 keyed
// with the secret over a purpose of its own and the data it is for, so
// no token can be computed from another one, and changing the secret
// revokes them all. None is stored: the database keeps only Hash of the
// ones that open something, so a stolen database opens no game.
//
// The tokens, by what they open:
//
//   - Seat: a seat's play link (game id, seat, token generation). A
//     resent link bumps the generation, which revokes the old link.
//   - Admin: a game's admin link, to its organiser (game id, generation).
//   - Confirm: a proposal's confirmation link, to its organiser.
//   - Signin: a sign-in link to "My games" (the link's id).
//   - ReplyTag: the secret of a seat's reply address (game id, seat,
//     generation), lower-case base32 because mail systems may fold the
//     case of an address; the same trust as the play link, and revoked
//     with it.
//   - Unsubscribe: an address's unsubscribe link (the preference page),
//     the address sealed with AES-256-GCM so that the link shows nothing
//     of it; VerifyUnsubscribe opens it.
//   - Block: the link that refuses every invitation to an address (the
//     address and its MAC); VerifyBlock checks it.
//   - CSRF: the token a page's form carries for the session cookie
//     (double submit).
//
// The package is a leaf (the standard library only): the game service
// (events/play) issues and checks the tokens that open games, notify
// writes them into the links of the emails it renders, and the pages
// check CSRF, none of them importing another for it.
package tokens
