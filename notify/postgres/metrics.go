package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// OutboxCollector reads the outbox's state at each scrape: how many rows
// wait (pending, and among them those due now), how long the oldest due
// row has been due, and how many rows failed for good. A healthy worker
// claims due rows within seconds, so a growing age means that no worker
// sends (or that the relay refuses everything): the "outbox stuck" alert.
//
// Its query reads the partial indexes outbox_due and outbox_failed, not
// the table's sent rows, so a scrape stays cheap as the outbox grows.
type OutboxCollector struct {
	pool    *pgxpool.Pool
	timeout time.Duration

	pending, due, oldest, failed *prometheus.Desc
}

var _ prometheus.Collector = (*OutboxCollector)(nil)

// NewOutboxCollector returns a collector of pool's outbox; register it on
// the server's registry.
func NewOutboxCollector(pool *pgxpool.Pool) *OutboxCollector {
	return &OutboxCollector{
		pool:    pool,
		timeout: 5 * time.Second,
		pending: prometheus.NewDesc("pbem_outbox_pending", "Outbox rows waiting to be sent (due now or later, after a backoff).", nil, nil),
		due:     prometheus.NewDesc("pbem_outbox_due", "Outbox rows whose send time has come and that no worker holds.", nil, nil),
		oldest: prometheus.NewDesc("pbem_outbox_oldest_due_age_seconds",
			"How long the oldest due outbox row has been due (0 when none is).", nil, nil),
		failed: prometheus.NewDesc("pbem_outbox_failed", "Outbox rows marked failed after their last attempt.", nil, nil),
	}
}

// outboxStateSQL counts the outbox's rows; a row leased by a worker
// (leased_until in the future) is pending but not due.
const outboxStateSQL = `WITH due AS (
	SELECT next_attempt_at FROM outbox
	WHERE status = 'pending' AND next_attempt_at <= now() AND (leased_until IS NULL OR leased_until <= now())
) SELECT
	(SELECT count(*) FROM outbox WHERE status = 'pending'),
	(SELECT count(*) FROM due),
	(SELECT coalesce(extract(epoch FROM now() - min(next_attempt_at)), 0)::float8 FROM due),
	(SELECT count(*) FROM outbox WHERE status = 'failed')`

// Describe implements prometheus.Collector.
func (c *OutboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.pending
	ch <- c.due
	ch <- c.oldest
	ch <- c.failed
}

// Collect implements prometheus.Collector. When the database does not
// answer, it reports the error (the scrape shows it) and no value: an
// alert on the outbox then does not fire on stale numbers, and the
// database alert does.
func (c *OutboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var pending, due, failed int64
	var oldest float64
	if err := c.pool.QueryRow(ctx, outboxStateSQL).Scan(&pending, &due, &oldest, &failed); err != nil {
		ch <- prometheus.NewInvalidMetric(c.pending, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(pending))
	ch <- prometheus.MustNewConstMetric(c.due, prometheus.GaugeValue, float64(due))
	ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, oldest)
	ch <- prometheus.MustNewConstMetric(c.failed, prometheus.GaugeValue, float64(failed))
}
