package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
	"github.com/runexp/runexp/internal/suite"
)

// cmdScoreboard writes REPRODUCIBILITY.md (and optionally an HTML page)
// from a results root: every claim under its base config and under each
// documented reading (internal/scoreboard). Exit 0 when written, 2 on bad
// input; configs not run and claims not evaluated are content of the page,
// not a failure of the command.
func cmdScoreboard(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scoreboard", flag.ContinueOnError)
	configs := fs.String("configs", "configs", "directory of the configs (*.yaml)")
	pv := fs.String("paper-values", "", "directory of the paper-values YAML files, for paper titles (default: ../shared/paper-values beside the configs' parent)")
	out := fs.String("out", "REPRODUCIBILITY.md", "Markdown file to write")
	htmlOut := fs.String("html", "", "HTML page to write (none when empty)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: runexp scoreboard [--configs DIR] [--paper-values DIR] [--out FILE.md] [--html FILE] RESULTS_ROOT\n\nFor each paper and claim: the verdict under the stated protocol and under each documented reading\n(configs with variant_of), with intervals and links to the evidence; totals per paper (docs/readings.md).\nRESULTS_ROOT is a folder of per-config results (runexp suite/run --out, or baseline/).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "runexp scoreboard: want one RESULTS_ROOT")
		return exitUsage
	}
	root := fs.Arg(0)
	if *pv == "" {
		*pv = suite.PaperValuesDir(*configs)
	}
	b, err := scoreboard.Load(*configs, root, *pv)
	if err != nil {
		fmt.Fprintln(stderr, "runexp scoreboard:", err)
		return exitUsage
	}
	cmd := []string{"runexp scoreboard"}
	if *configs != "configs" {
		cmd = append(cmd, "--configs "+filepath.ToSlash(*configs))
	}
	cmd = append(cmd, filepath.ToSlash(root))
	o := scoreboard.Options{Command: strings.Join(cmd, " "), ConfigsDir: *configs, LinkDir: filepath.Dir(*out)}
	if err := report.WriteFileAtomic(*out, b.Markdown(o)); err != nil {
		fmt.Fprintln(stderr, "runexp scoreboard:", err)
		return exitUsage
	}
	if *htmlOut != "" {
		o.LinkDir = filepath.Dir(*htmlOut)
		page, err := b.HTML(o)
		if err == nil {
			err = report.WriteFileAtomic(*htmlOut, page)
		}
		if err != nil {
			fmt.Fprintln(stderr, "runexp scoreboard:", err)
			return exitUsage
		}
	}
	fmt.Fprint(stdout, b.Text())
	return exitOK
}
