package config_test

import (
	"fmt"
	"runtime"
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

// TestParseMemoryBound: a config of at most MaxFileBytes is refused or
// parsed within 200 MB of allocation, whatever shape its bulk takes
// (issue #38: a 3.8 MB flat list of 1.9 M integers peaked at 467–570 MB
// before it was refused).
func TestParseMemoryBound(t *testing.T) {
	head := "title: t\npaper: p\nkind: local-minima\ndataset: {name: two-rings}\nmodel:\n  kernel: gaussian\n  c: "
	var flow, block, mapping strings.Builder
	flow.WriteString(head + "[")
	block.WriteString(head + "\n")
	mapping.WriteString(head + "1\nexperiment:\n")
	for i := 0; flow.Len() < config.MaxFileBytes-10; i++ {
		flow.WriteString("1,")
	}
	flow.WriteString("1]\n")
	for block.Len() < config.MaxFileBytes-10 {
		block.WriteString("  - 1\n")
	}
	for i := 0; mapping.Len() < config.MaxFileBytes-20; i++ {
		fmt.Fprintf(&mapping, "  k%d: 1\n", i)
	}
	for name, src := range map[string]string{"flow list": flow.String(), "block list": block.String(), "mapping": mapping.String()} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := config.Parse("c.yaml", []byte(src))
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		if err == nil || !strings.Contains(err.Error(), "100000") {
			t.Errorf("%s of %d bytes: err %v; want the node bound", name, len(src), err)
		}
		if alloc > 200<<20 {
			t.Errorf("%s of %d bytes: %d MB allocated before it was refused, want ≤ 200", name, len(src), alloc>>20)
		}
	}
}
