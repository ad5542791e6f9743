package notify

import (
	"context"
	"pbem/projections/outbox"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Metrics counts what the mail side does: emails handed to the next hop or
// refused, by kind, and deadlines that fired. The outbox's depth and the
// age of its oldest due row are read from the database at each scrape
// (notify/postgres.OutboxCollector).
type Metrics struct {
	sent     *prometheus.CounterVec
	failed   *prometheus.CounterVec
	timeouts prometheus.Counter
}

// NewMetrics registers the mail metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := promauto.With(reg)
	m := &Metrics{
		sent: f.NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_emails_sent_total",
			Help: "Emails accepted by the SMTP relay (or the dev mailbox), by kind.",
		}, []string{"kind"}),
		failed: f.NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_emails_failed_total",
			Help: "Email sends that failed, by kind and whether the failure is permanent (the row is marked failed) or retried.",
		}, []string{"kind", "permanent"}),
		timeouts: f.NewCounter(prometheus.CounterOpts{
			Name: "pbem_deadlines_fired_total",
			Help: "Turn deadlines that passed and made the scheduler apply the game's timeout policy.",
		}),
	}
	// Every series exists from the start, at 0, so that rate() and
	// increase() see the first email.
	for _, k := range outbox.Kinds() {
		m.sent.WithLabelValues(string(k))
		m.failed.WithLabelValues(string(k), "true")
		m.failed.WithLabelValues(string(k), "false")
	}
	return m
}

// Sender returns s counting every message's outcome. A StreamSender stays
// one (the worker then records each outcome as soon as it is known, and
// the SMTP sender keeps its connections).
func (m *Metrics) Sender(s Sender) Sender {
	if ss, ok := s.(StreamSender); ok {
		return countingStreamSender{countingSender{next: s, m: m}, ss}
	}
	return countingSender{next: s, m: m}
}

// Timeouter applies a game's timeout policy when its deadline has passed
// (the game service's Timeout, which the scheduler of events/play calls),
// reporting whether it acted. Metrics counts the timeouts it applied.
type Timeouter interface {
	Timeout(ctx context.Context, gameID string, now time.Time) (bool, error)
}

// Timeouter returns t counting the timeouts it applies.
func (m *Metrics) Timeouter(t Timeouter) Timeouter { return countingTimeouter{next: t, m: m} }

// countingSender counts the outcomes of its messages' sends.
type countingSender struct {
	next Sender
	m    *Metrics
}

// Send implements Sender.
func (c countingSender) Send(ctx context.Context, msgs []*Message) []error {
	errs := c.next.Send(ctx, msgs)
	for i, err := range errs {
		c.count(msgs[i], err)
	}
	return errs
}

// count counts one message's outcome.
func (c countingSender) count(m *Message, err error) {
	kind := string(m.Kind)
	switch {
	case err == nil:
		c.m.sent.WithLabelValues(kind).Inc()
	case IsPermanent(err):
		c.m.failed.WithLabelValues(kind, "true").Inc()
	default:
		c.m.failed.WithLabelValues(kind, "false").Inc()
	}
}

// countingStreamSender is a countingSender around a StreamSender.
type countingStreamSender struct {
	countingSender
	stream StreamSender
}

// SendEach implements StreamSender.
func (c countingStreamSender) SendEach(ctx context.Context, msgs []*Message, report func(i int, err error) bool) {
	c.stream.SendEach(ctx, msgs, func(i int, err error) bool {
		c.count(msgs[i], err)
		return report(i, err)
	})
}

// countingTimeouter counts the timeouts its Timeouter applied.
type countingTimeouter struct {
	next Timeouter
	m    *Metrics
}

// Timeout implements Timeouter.
func (c countingTimeouter) Timeout(ctx context.Context, gameID string, now time.Time) (bool, error) {
	acted, err := c.next.Timeout(ctx, gameID, now)
	if acted {
		c.m.timeouts.Inc()
	}
	return acted, err
}
