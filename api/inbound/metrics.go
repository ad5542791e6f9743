package inbound

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Metrics counts what the reply listener refuses and what becomes of the
// messages it accepts. Every label takes a value from a fixed set, known
// at registration, so that nothing a sender writes makes a new series.
type Metrics struct {
	refused  *prometheus.CounterVec
	messages *prometheus.CounterVec
}

// Refusal reasons (the reason label of pbem_inbound_refused_total).
const (
	RefusedUnknown    = "unknown_address" // 550: not a reply address
	RefusedSecret     = "invalid_secret"  // 550: a reply address with a forged or revoked secret
	RefusedTooBig     = "too_big"         // 552: over PBEM_INBOUND_MAX_BYTES, declared or sent
	RefusedTemporary  = "temporary"       // 451: the database failed; the sender tries again
	RefusedShape      = "structure"       // 554: nested or divided beyond the limits, or too slow to read (checkShape)
	RefusedBusy       = "busy"            // 421: more sessions at once than ListenerConfig.MaxSessions
	RefusedClientBusy = "client_busy"     // 421: more sessions at once from one network than ListenerConfig.MaxSessionsPerClient
)

// Message results (the result label of pbem_inbound_messages_total).
const (
	ResultReply      = "reply"       // read, acted on and answered (or over the hourly bound)
	ResultIgnored    = "ignored"     // an automatic message
	ResultHardBounce = "hard_bounce" // a failed delivery, marked for the organiser
	ResultSoftBounce = "soft_bounce" // a delay warning
	ResultDuplicate  = "duplicate"   // a message handled already
)

// NewMetrics registers the listener's metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := promauto.With(reg)
	m := &Metrics{
		refused: f.NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_inbound_refused_total",
			Help: "Recipients or messages the reply listener refused, by reason: unknown_address and invalid_secret (550), too_big (552), temporary (451: the database failed), structure (554: nested or divided beyond the limits, or too slow to read), busy (421: too many sessions at once), client_busy (421: too many sessions at once from one network, an IPv4 /24 or an IPv6 /64).",
		}, []string{"reason"}),
		messages: f.NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_inbound_messages_total",
			Help: "Messages the reply listener accepted, by result: reply, ignored (automatic), hard_bounce, soft_bounce, duplicate.",
		}, []string{"result"}),
	}
	for _, r := range []string{RefusedUnknown, RefusedSecret, RefusedTooBig, RefusedTemporary, RefusedShape, RefusedBusy, RefusedClientBusy} {
		m.refused.WithLabelValues(r)
	}
	for _, r := range []string{ResultReply, ResultIgnored, ResultHardBounce, ResultSoftBounce, ResultDuplicate} {
		m.messages.WithLabelValues(r)
	}
	return m
}

// refuse counts a refusal; m may be nil.
func (m *Metrics) refuse(reason string) {
	if m != nil {
		m.refused.WithLabelValues(reason).Inc()
	}
}

// accepted counts a message's outcome; m may be nil.
func (m *Metrics) accepted(o Outcome) {
	if m == nil {
		return
	}
	r := ResultReply
	switch o {
	case OutcomeIgnored:
		r = ResultIgnored
	case OutcomeBounce:
		r = ResultHardBounce
	case OutcomeSoftBounce:
		r = ResultSoftBounce
	case OutcomeDuplicate:
		r = ResultDuplicate
	}
	m.messages.WithLabelValues(r).Inc()
}
