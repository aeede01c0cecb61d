package config

import "fmt"

// PaperInfo is what a report on a paper reads from its paper-values file
// (../shared/paper-values/<paper>.yaml): the citation, the paper's claims
// and its ambiguities, as transcribed there.
type PaperInfo struct {
	Title   string
	Authors []string
	Venue   string
	Year    string
	DOI     string
	Claims  []PaperClaim
	// Ambiguities are the paper's unstated or ambiguous points, each
	// with its id (a1, a2, …), topic and text.
	Ambiguities []Ambiguity
}

// Ambiguity is one ambiguity of a paper-values file.
type Ambiguity struct {
	ID, Topic, Text string
}

// ReadPaperInfo reads the citation, claims and ambiguities of the
// paper-values file at path.
func ReadPaperInfo(path string) (*PaperInfo, error) {
	var v struct {
		Citation struct {
			Title   string   `yaml:"title"`
			Authors []string `yaml:"authors"`
			Venue   string   `yaml:"venue"`
			Year    any      `yaml:"year"`
			DOI     string   `yaml:"doi"`
		} `yaml:"citation"`
		Claims []struct {
			ID        string `yaml:"id"`
			Statement string `yaml:"statement"`
		} `yaml:"claims"`
		Ambiguities []struct {
			ID    string `yaml:"id"`
			Topic string `yaml:"topic"`
			Text  string `yaml:"text"`
		} `yaml:"ambiguities"`
	}
	if err := readPaperValues(path, &v); err != nil {
		return nil, err
	}
	in := &PaperInfo{Title: v.Citation.Title, Authors: v.Citation.Authors, Venue: v.Citation.Venue, DOI: v.Citation.DOI}
	if v.Citation.Year != nil {
		in.Year = fmt.Sprint(v.Citation.Year)
	}
	for _, c := range v.Claims {
		in.Claims = append(in.Claims, PaperClaim{ID: c.ID, Statement: c.Statement})
	}
	for _, a := range v.Ambiguities {
		in.Ambiguities = append(in.Ambiguities, Ambiguity{ID: a.ID, Topic: a.Topic, Text: a.Text})
	}
	return in, nil
}
