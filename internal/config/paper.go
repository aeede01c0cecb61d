package config

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/runexp/runexp/internal/safefs"
)

// PaperTitle reads citation.title from a paper-values file
// (../shared/paper-values/<paper>.yaml), the title the scoreboard heads a
// paper's section with. Other keys of the file are not read.
func PaperTitle(path string) (string, error) {
	var v struct {
		Citation struct {
			Title string `yaml:"title"`
		} `yaml:"citation"`
	}
	if err := readPaperValues(path, &v); err != nil {
		return "", err
	}
	if v.Citation.Title == "" {
		return "", &Error{File: path, Msg: "paper values: no citation.title"}
	}
	return v.Citation.Title, nil
}

// readPaperValues reads the keys of a paper-values file that v's fields
// name; errors name the file.
func readPaperValues(path string, v any) error {
	// As every file runexp reads: regular, bounded before it is read.
	b, err := safefs.ReadFile(path, MaxFileBytes)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		return yamlError(path, err)
	}
	return nil
}

// PaperClaim is one claim of a paper-values file: its id (c1, c2, …) and
// statement.
type PaperClaim struct {
	ID, Statement string
}

// PaperClaims reads the claims of a paper-values file, in file order.
func PaperClaims(path string) ([]PaperClaim, error) {
	var v struct {
		Claims []struct {
			ID        string `yaml:"id"`
			Statement string `yaml:"statement"`
		} `yaml:"claims"`
	}
	if err := readPaperValues(path, &v); err != nil {
		return nil, err
	}
	out := make([]PaperClaim, 0, len(v.Claims))
	seen := map[string]bool{}
	for i, c := range v.Claims {
		if c.ID == "" || seen[c.ID] {
			return nil, &Error{File: path, Msg: fmt.Sprintf("paper values: claims[%d]: id %q is empty or repeated", i, Excerpt(c.ID))}
		}
		seen[c.ID] = true
		out = append(out, PaperClaim{ID: c.ID, Statement: c.Statement})
	}
	return out, nil
}

// Account is how the scoreboard accounts for a paper claim that no
// config tests directly: NotTestable gives why it cannot be tested here,
// or Aggregate lists the paper's claims whose verdicts it combines
// ("overall our method beats the others": every table's claim), with
// Reading saying how. Exactly one of NotTestable and Aggregate is set.
type Account struct {
	Claim       string
	NotTestable string
	Aggregate   []string
	Reading     string
	Line        int
}

// Accounting is an accounting file (configs/accounting/<paper>.yaml):
//
//	paper: <paper id>
//	claims:
//	  - claim: c8
//	    aggregate: [c1, c2, c3, c5]
//	    reading: "every comparative claim of the paper's tables"
//	  - claim: c10
//	    not_testable: "why no config can test it"
type Accounting struct {
	File, Paper string
	Accounts    []Account
}

// LoadAccounting reads an accounting file; errors name FILE:LINE.
func LoadAccounting(path string) (*Accounting, error) {
	b, err := safefs.ReadFile(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, yamlError(path, err)
	}
	bad := func(n *yaml.Node, format string, args ...any) error {
		return &Error{File: path, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{File: path, Msg: "accounting: want a mapping with paper and claims"}
	}
	a := &Accounting{File: path}
	top := doc.Content[0]
	for k, v := range entries(top) {
		switch k.Value {
		case "paper":
			a.Paper = v.Value
		case "claims":
			if v.Kind != yaml.SequenceNode {
				return nil, bad(v, "accounting: claims: want a list")
			}
			for _, e := range v.Content {
				ac, err := account(e, bad)
				if err != nil {
					return nil, err
				}
				a.Accounts = append(a.Accounts, ac)
			}
		default:
			return nil, bad(k, "accounting: unknown key %q (want paper, claims)", Excerpt(k.Value))
		}
	}
	if a.Paper == "" {
		return nil, &Error{File: path, Msg: "accounting: no paper"}
	}
	return a, nil
}

func account(e *yaml.Node, bad func(*yaml.Node, string, ...any) error) (Account, error) {
	ac := Account{Line: e.Line}
	if e.Kind != yaml.MappingNode {
		return ac, bad(e, "accounting: want {claim, not_testable} or {claim, aggregate, reading}")
	}
	for k, v := range entries(e) {
		switch k.Value {
		case "claim":
			ac.Claim = v.Value
		case "not_testable":
			ac.NotTestable = strings.TrimSpace(v.Value)
		case "reading":
			ac.Reading = strings.TrimSpace(v.Value)
		case "aggregate":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return ac, bad(v, "accounting: aggregate: want a list of the paper's claim ids")
			}
			for _, c := range v.Content {
				ac.Aggregate = append(ac.Aggregate, c.Value)
			}
		default:
			return ac, bad(k, "accounting: unknown key %q (want claim, not_testable, aggregate, reading)", k.Value)
		}
	}
	switch {
	case ac.Claim == "":
		return ac, bad(e, "accounting: an entry without claim")
	case (ac.NotTestable == "") == (len(ac.Aggregate) == 0):
		return ac, bad(e, "accounting: claim %s: give exactly one of not_testable (the reason) and aggregate", ac.Claim)
	case len(ac.Aggregate) > 0 && ac.Reading == "":
		return ac, bad(e, "accounting: claim %s: an aggregate needs reading: how its verdicts combine", ac.Claim)
	}
	return ac, nil
}

// PrintedValue is one value of a table of a paper-values file, as the
// paper prints it.
type PrintedValue struct {
	Value float64
	// Printed and StdPrinted are the value and its ± std as printed
	// ("10.60", "2.84"); StdPrinted is "" when the paper prints none.
	Printed, StdPrinted string
}

// PaperTableValues reads the rows of table id (e.g. "table1") of a
// paper-values file, for checking a config's reference values against
// the transcription they cite. Other keys of the file are not read.
func PaperTableValues(path, id string) ([]PrintedValue, error) {
	var v struct {
		Tables []struct {
			ID   string `yaml:"id"`
			Rows []struct {
				Value      float64 `yaml:"value"`
				Printed    string  `yaml:"printed"`
				StdPrinted string  `yaml:"std_printed"`
			} `yaml:"rows"`
		} `yaml:"tables"`
	}
	if err := readPaperValues(path, &v); err != nil {
		return nil, err
	}
	for _, t := range v.Tables {
		if t.ID != id {
			continue
		}
		out := make([]PrintedValue, len(t.Rows))
		for i, r := range t.Rows {
			out[i] = PrintedValue{Value: r.Value, Printed: r.Printed, StdPrinted: r.StdPrinted}
		}
		return out, nil
	}
	return nil, &Error{File: path, Msg: fmt.Sprintf("paper values: no table %q", id)}
}

// UnmarshalYAML decodes YAML b into v, for the packages that read a YAML
// file runexp writes (a report's metadata.yaml, in its tests): the YAML
// library stays behind this package.
func UnmarshalYAML(b []byte, v any) error { return yaml.Unmarshal(b, v) }
