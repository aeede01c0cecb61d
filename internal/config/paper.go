package config

import (
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"
)

// PaperTitle reads citation.title from a paper-values file
// (../shared/paper-values/<paper>.yaml), the title the scoreboard heads a
// paper's section with. Other keys of the file are not read.
func PaperTitle(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	var v struct {
		Citation struct {
			Title string `yaml:"title"`
		} `yaml:"citation"`
	}
	if err := yaml.Unmarshal(b, &v); err != nil {
		return "", yamlError(path, err)
	}
	if v.Citation.Title == "" {
		return "", &Error{File: path, Msg: "paper values: no citation.title"}
	}
	return v.Citation.Title, nil
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
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
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
	if err := yaml.Unmarshal(b, &v); err != nil {
		return nil, yamlError(path, err)
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
