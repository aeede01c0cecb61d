package main

import (
	"flag"
	"strings"

	"github.com/runexp/runexp/internal/suite"
)

// withFlag collects the repeatable --with flag.
type withFlag []string

func (w *withFlag) String() string { return strings.Join(*w, " ") }
func (w *withFlag) Set(s string) error {
	*w = append(*w, s)
	return nil
}

const withUsage = "add an estimator to every config whose kind can use it: `SPEC` is NAME or NAME:key=value,key=value (values are YAML scalars; label=… sets the label), e.g. learned:alpha=0.01 (repeatable); the results go to OUT/with-SLUG"

const allowExternalUsage = "let the configs' own methods run the commands of external estimators: a config that names a command is code (runexp validate lists them; docs/external-estimators.md, \"Trust\"); --with external:… typed on this command line runs without this flag, as typing it is leave enough"

// withOptions are the flags of a command that takes --with: the specs
// and where their results go.
type withOptions struct {
	args withFlag
	dir  string
}

func (o *withOptions) register(fs *flag.FlagSet) {
	fs.Var(&o.args, "with", withUsage)
	fs.StringVar(&o.dir, "with-dir", "", "with --with: the folder `NAME` inside --out for the results (default with-SLUG, named after the specs); '.' writes into --out itself, replacing the configs' own result folders")
}

// resolve parses the specs and returns them with the results root
// (suite.Root).
func (o *withOptions) resolve(out string) ([]*suite.With, string, error) {
	ws, err := suite.ParseWiths(o.args)
	if err != nil {
		return nil, "", err
	}
	root, err := suite.Root(out, o.dir, ws)
	if err != nil {
		return nil, "", err
	}
	return ws, root, nil
}
