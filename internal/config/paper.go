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
