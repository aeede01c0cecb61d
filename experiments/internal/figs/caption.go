package figs

import (
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Caption ties a figure of the run of cfg to the paper: the config's title
// (which names the paper and the figure, "Abrahamsen & Hansen (2011) Fig.
// 3: …"), what this figure shows, the reading of the paper where the
// config chooses one, and where the run and the paper's values come from.
//
// The reading is the corruption as the config states it ("noise variance
// 0.25 (std 0.5)"), the one choice that tells apart configs regenerating
// the same figure, followed by the readings given. A config has no field
// for other readings (the profile rows of Fig. 6, the [0, 1] scale of
// fig6-unit): the kinds pass them, and its title usually names them.
func Caption(cfg *config.Config, shows string, readings ...string) report.Caption {
	if cfg == nil {
		return report.Caption{Shows: shows, Reading: strings.Join(readings, "; ")}
	}
	var rd []string
	if c := cfg.Corruption; c.Printed != "" && c.Type != "" && c.Type != "none" {
		what := "noise"
		if c.Type == "occlusion" {
			what = "occlusion"
		}
		rd = append(rd, what+" "+c.Printed)
	}
	rd = append(rd, readings...)
	src := "runexp config " + cfg.Name
	if cfg.Paper != "" {
		src += "; paper values in paper-values/" + cfg.Paper + ".yaml"
	}
	return report.Caption{Figure: cfg.Title, Shows: shows, Reading: strings.Join(rd, "; "), Source: src}
}
