package main

import (
	"errors"
	"fmt"

	"pbem/notify"
)

// loadDKIM returns the DKIM signer of PBEM_DKIM_KEY, PBEM_DKIM_SELECTOR and
// PBEM_DKIM_DOMAIN; on is false when none of them is set. Setting some but not
// all is an error, as is an unreadable key. It prints the DNS record to
// publish as zone-file text (and logs it), and warns when the From address is not aligned with the
// signing domain (DMARC would not count the signature).
func loadDKIM(e *env, from string) (d *notify.DKIM, on bool, err error) {
	c := e.cfg
	if c.DKIMKey == "" && c.DKIMSelector == "" && c.DKIMDomain == "" {
		return nil, false, nil
	}
	if c.DKIMKey == "" || c.DKIMSelector == "" || c.DKIMDomain == "" {
		return nil, false, errors.New("DKIM: set all of PBEM_DKIM_KEY, PBEM_DKIM_SELECTOR and PBEM_DKIM_DOMAIN, or none")
	}
	d, err = notify.LoadDKIM(c.DKIMKey, c.DKIMSelector, c.DKIMDomain)
	if err != nil {
		return nil, false, err
	}
	e.log.Info("DKIM: signing emails", "domain", d.Domain(), "txt_record", d.DNSName(), "value", d.DNSRecord())
	fmt.Fprintf(e.stdout, "pbem: DKIM: publish this TXT record (zone-file text, strings of at most 255 characters):\n%s\n", d.ZoneRecord())
	if from != "" && !d.AlignedWith(from) {
		e.log.Warn("DKIM: the From address is not in the signing domain: DMARC will not count the signature",
			"from", from, "dkim_domain", d.Domain())
	}
	return d, true, nil
}
