package config_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// corruption.clip: parsed, printed, part of the cache context, and
// exclusive with stretch at clip's line.
func TestCorruptionClip(t *testing.T) {
	c := mustParse(t, head+"corruption:\n  type: gaussian\n  variance: 0.25\n  clip: true\n")
	if !c.Corruption.Clip || c.Corruption.Stretch {
		t.Errorf("Clip %v Stretch %v, want clip only", c.Corruption.Clip, c.Corruption.Stretch)
	}
	if want := "variance 0.25 (std 0.5), clipped to [0, 1]"; c.Corruption.Printed != want {
		t.Errorf("Printed %q, want %q", c.Corruption.Printed, want)
	}
	// Clip changes the corrupted images, so it must change the cells'
	// cache context (the same config with stretch instead does not share
	// cached cells).
	s := mustParse(t, head+"corruption:\n  type: gaussian\n  variance: 0.25\n  stretch: true\n")
	if c.Context() == s.Context() {
		t.Error("clip and stretch configs share a cache context")
	}
	if s.Corruption.Clip {
		t.Error("clip defaults to true")
	}

	// head is lines 1–4; corruption 5, type 6, std 7, stretch 8, clip 9.
	_, err := config.Parse("f.yaml", []byte(head+"corruption:\n  type: gaussian\n  std: 0.1\n  stretch: true\n  clip: true\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:9: ") || !strings.Contains(err.Error(), "clip and stretch exclude each other") {
		t.Errorf("clip with stretch: error %v, want f.yaml:9: … clip and stretch exclude each other", err)
	}
	_, err = config.Parse("f.yaml", []byte(head+"corruption:\n  type: gaussian\n  std: 0.1\n  clip: yes please\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:8: ") {
		t.Errorf("clip not a boolean: error %v, want one at f.yaml:8", err)
	}
}
