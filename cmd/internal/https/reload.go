package https

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// reloadEvery is how often, at most, a handshake looks whether the
// certificate's files changed.
const reloadEvery = time.Second

// reloader serves a certificate and key of one's own and loads them again
// when either file changes (size or modification time), as after a renewal
// by certbot or another tool. A pair that fails to load (a half-written
// file, a key of another certificate) is logged and the previous one kept.
type reloader struct {
	certFile, keyFile string
	log               *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string // the files' sizes and times the certificate was read at
	checked time.Time
}

// newReloader loads the pair once; an error here stops serve.
func newReloader(certFile, keyFile string, log *slog.Logger) (*reloader, error) {
	r := &reloader{certFile: certFile, keyFile: keyFile, log: log}
	stamp, err := r.stampNow()
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("PBEM_TLS_CERT/PBEM_TLS_KEY: %w", err)
	}
	r.cert, r.stamp, r.checked = &cert, stamp, time.Now()
	return r, nil
}

// stampNow describes the two files as they are now.
func (r *reloader) stampNow() (string, error) {
	s := ""
	for _, f := range []string{r.certFile, r.keyFile} {
		fi, err := os.Stat(f)
		if err != nil {
			return "", err
		}
		s += fmt.Sprintf("%d@%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return s, nil
}

// getCertificate is the tls.Config's GetCertificate.
func (r *reloader) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.checked) < reloadEvery {
		return r.cert, nil
	}
	r.checked = time.Now()
	stamp, err := r.stampNow()
	if err != nil || stamp == r.stamp {
		if err != nil {
			r.log.Warn("tls certificate files", "err", err)
		}
		return r.cert, nil
	}
	cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		r.log.Warn("tls certificate changed but does not load; keeping the previous one", "err", err)
		return r.cert, nil
	}
	r.cert, r.stamp = &cert, stamp
	r.log.Info("tls certificate reloaded", "file", r.certFile)
	return r.cert, nil
}
