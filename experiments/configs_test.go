package experiments_test

import (
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestEveryConfigValidates keeps the shipped configs in step with the
// estimators, kinds and datasets they name.
func TestEveryConfigValidates(t *testing.T) {
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs found: %v", err)
	}
	for _, f := range files {
		c, err := config.Load(f)
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err != nil {
			t.Errorf("%v", err)
		}
	}
}
