package config_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// TestErrorQuotesExcerpt: an error quotes at most config.MaxExcerpt
// characters of the offending content, control characters escaped
// (issue #38: a 3 MB one-line scalar gave a 3 MB error line, and a
// member linked to /etc/passwd had it echoed).
func TestErrorQuotesExcerpt(t *testing.T) {
	long := strings.Repeat("x", 3<<20)
	for _, src := range []string{
		"title: t\npaper: p\nkind: local-minima\ndataset: {name: two-rings}\nmodel:\n  kernel: gaussian\n  c: " + long + "\n",
		"title: t\npaper: p\nkind: local-minima\ndataset: {name: two-rings}\nmodel:\n  kernel: gaussian\n  " + long + ": 1\n",
		"root:x:0:0:root:/root:/bin/bash daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin " + long + "\n",
		"title: t\npaper: p\nkind: local-minima\ndataset: {name: two-rings}\nmodel:\n  kernel: \"gauss\\x1b[2J\\x07" + long + "\"\n",
	} {
		_, err := config.Parse("c.yaml", []byte(src))
		if err == nil {
			t.Fatalf("no error for %.40q", src)
		}
		msg := err.Error()
		if len(msg) > 600 {
			t.Errorf("a %d-byte error: %.200s", len(msg), msg)
		}
		if strings.ContainsAny(msg, "\x1b\x07") {
			t.Errorf("control characters raw in %q", msg)
		}
	}
}
